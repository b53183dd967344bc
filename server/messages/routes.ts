/**
 * The messages' routes:
 * - /api/messages (staff: Admin, Super User, User in their sponsors' scope): the outbox list
 *   (status, attempts, error), POST /:id/resend, POST /:id/reveal (the recipient's address, an
 *   audit event of its own; the only way an address is shown);
 * - /api/message-templates (read: staff; write: Admin, Super User): each kind and language, the
 *   shipped default until edited; PATCH /:kind.:language saves (HTML sanitized), DELETE puts the
 *   default back; GET /:kind.:language/preview renders it with demo values; a text's (SMS)
 *   template is /:kind.:language.sms, its text alone (SmsTemplateInput);
 * - /api/message-settings (read: staff; write: Admin, Super User): each kind on or off and its
 *   delay, per engagement (`id` is engagementId.kind);
 * - /api/message-unsubscribe/:token (participants, no sign-in): GET shows a page with a button,
 *   POST (RFC 8058 one-click, what mail clients send) opts the address out at once.
 */
import { Hono, type Context } from 'hono';
import {
  isMessageKind,
  isSmsKind,
  MESSAGE_DEFAULT_SORT,
  MESSAGE_LANGUAGES,
  MESSAGE_SETTING,
  MESSAGE_SETTING_TYPE,
  MESSAGE_TEMPLATE,
  MESSAGE_TEMPLATE_TYPE,
  MESSAGE_TYPE,
  MessageRevealedDocument,
  MessageSettingInput,
  MessageTemplatePreviewDocument,
  MessageTemplateInput,
  smsLength,
  SmsTemplateInput,
  MESSAGE,
  type Message,
} from '@core/model/message';
import { nowOf, type AppEnv, type Deps } from '../context';
import { authenticate, requireRole, STAFF_ADMIN_ROLES } from '../auth/guards';
import { answerText } from '../http/responseText';
import { conflict, notFound } from '../http/errors';
import { idParam, required } from '../http/params';
import { parseId, type ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { modelResource, sendDocument, sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { answerWholeList, wholeListRead } from '../http/wholeList';
import { resourceUpdate } from '../http/resourceWrites';
import { phiOf } from '../security/phi';
import { findMessage, listMessages, MESSAGE_LIST_FILTERS, MESSAGE_SORT_FIELDS, revealRecipient } from './list';
import { restartMessage, unsubscribeByToken } from './outbox';
import { messageSettingsOf, saveMessageSetting, visibleEngagement } from './settings';
import { allSmsTemplates, renderSms, saveSmsTemplate, smsTemplateOf } from './smsTexts';
import { allTemplates, render, saveTemplate, templateLanguage, templateOf } from './templates';
import { messageOptionsOf, sendDue } from './worker';

const listSpec: ListSpec<(typeof MESSAGE_SORT_FIELDS)[number], typeof MESSAGE_LIST_FILTERS> = {
  type: MESSAGE_TYPE,
  sorts: MESSAGE_SORT_FIELDS,
  defaultSort: MESSAGE_DEFAULT_SORT,
  filters: MESSAGE_LIST_FILTERS,
  fields: MESSAGE.names,
};

const resourceOf = (message: Message, fields: Set<string> | null = null) => modelResource(MESSAGE_TYPE, message, fields);

const STAFF_ROLES = ['Admin', 'Super User', 'User'] as const;

/** An engagement's message settings: the engagement's. */
const SETTINGS_QUERY = { engagementId: required(idParam('engagement', 'The engagement.')) };

export function messagesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.use('*', requireRole(...STAFF_ROLES));

  app.get('/', describe({ summary: 'List messages (the outbox)', list: listSpec, answer: { list: MESSAGE } }), (c) =>
    answerRows(c, listSpec, (q) => listMessages(db, c.get('user'), q), resourceOf),
  );

  const findAtPath = (c: Context<AppEnv>) => rowAtPath(c, 'message', (id) => findMessage(db, c.get('user'), id));

  app.get(
    '/:id',
    describe({ summary: 'A message', answer: { resource: MESSAGE } }),
    memberRead(
      null,
      'message',
      rowReader((id, user) => findMessage(db, user, id), resourceOf),
    ),
  );

  app.post('/:id/resend', describe({ summary: 'Send a message that was not sent again, now', answer: { resource: MESSAGE } }), async (c) => {
    const { id } = await findAtPath(c);
    const outcome = await restartMessage(db, id, nowOf(deps));
    if (outcome === 'sent') throw conflict('This message was sent already.');
    if (outcome === 'purged') throw conflict('The body of this message was deleted (MESSAGE_RETENTION_DAYS): it cannot be sent again.');
    if (outcome === 'missing') throw notFound('message');
    await sendDue(messageOptionsOf(deps), nowOf(deps), { id });
    const after = await findMessage(db, c.get('user'), id);
    c.set('audit', { entity: MESSAGE_TYPE, entityId: id, action: 'resend' });
    return sendResource(c, resourceOf(after!));
  });

  app.post(
    '/:id/reveal',
    describe({ summary: "A message's recipient address (recorded in the audit trail)", answer: { document: MessageRevealedDocument } }),
    async (c) => {
      const id = parseId(c.req.param('id'));
      const to = await revealRecipient(db, phiOf(deps), c.get('user'), id);
      if (to === null) throw notFound('message');
      // The event names the message; the address it answered is never copied into the trail.
      c.set('audit', { entity: MESSAGE_TYPE, entityId: id, action: 'reveal' });
      c.header('Cache-Control', 'no-store');
      return sendDocument(c, { meta: { to } });
    },
  );

  return app;
}

/** `kind.language` for a mail's template (`newReferral.es`), `kind.language.sms` for a text's (`participantConfirmation.es.sms`). */
function templateId(raw: string) {
  const [kind, language, channel, extra] = raw.split('.');
  if (extra !== undefined || !isMessageKind(kind) || !(MESSAGE_LANGUAGES as readonly string[]).includes(language ?? '')) return null;
  if (channel === undefined) return { channel: 'email' as const, kind, language: templateLanguage(language!) };
  if (channel === 'sms' && isSmsKind(kind)) return { channel: 'sms' as const, kind, language: templateLanguage(language!) };
  return null;
}

const mailTemplateResource = (t: Awaited<ReturnType<typeof allTemplates>>[number]) =>
  toResource(MESSAGE_TEMPLATE_TYPE, `${t.kind}.${t.language}`, { channel: 'email', ...t });
// A text has no subject and no HTML part: only its text.
const smsTemplateResource = (t: Awaited<ReturnType<typeof allSmsTemplates>>[number]) =>
  toResource(MESSAGE_TEMPLATE_TYPE, `${t.kind}.${t.language}.sms`, { channel: 'sms', ...t });

/** What a preview fills the placeholders with: the demo study's words, no one's data. */
const PREVIEW_VALUES = {
  engagement: 'Healthy Heart Study',
  site: 'Midtown Heart Center',
  town: 'New York',
  due: '2031-05-08 09:00 UTC',
  link: 'https://recruitment.example/referrals/view/1',
  unsubscribe: 'https://recruitment.example/api/message-unsubscribe/preview',
  date: '2031-05-08',
  new: '3',
  overdue: '1',
  sites: 'Midtown Heart Center: 2 new, 1 overdue\nLakeside Cardiology: 1 new, 0 overdue',
};

export function messageTemplatesRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.use('*', requireRole(...STAFF_ROLES));

  app.get('/', describe(wholeListRead('Message templates: every kind in every language, e-mail and text (SMS)', MESSAGE_TEMPLATE)), (c) =>
    answerWholeList(c, async () => [...(await allTemplates(db)).map(mailTemplateResource), ...(await allSmsTemplates(db)).map(smsTemplateResource)]),
  );

  app.get(
    '/:id/preview',
    describe({
      summary: 'A template rendered with demo values',
      answer: { document: MessageTemplatePreviewDocument },
    }),
    async (c) => {
      const id = templateId(c.req.param('id'));
      if (!id) throw notFound('message template');
      if (id.channel === 'sms') {
        const text = renderSms(id.kind, (await smsTemplateOf(db, id.kind, id.language)).text, PREVIEW_VALUES);
        return sendDocument(c, { meta: { text, ...smsLength(text) } });
      }
      const rendered = render(id.kind, await templateOf(db, id.kind, id.language), PREVIEW_VALUES);
      return sendDocument(c, { meta: rendered });
    },
  );

  app.patch(
    '/:id',
    describe({
      summary: 'Edit a message template',
      description: "Edit a message template: an e-mail's (id `kind.language`) takes subject, html and text; a text's (id `kind.language.sms`) takes text only.",
      body: { resource: MESSAGE_TEMPLATE_TYPE, oneOf: { email: MessageTemplateInput, sms: SmsTemplateInput } },
      answer: { resource: MESSAGE_TEMPLATE },
    }),
    requireRole(...STAFF_ADMIN_ROLES),
    async (c) => {
      const id = templateId(c.req.param('id'));
      if (!id) throw notFound('message template');
      if (id.channel === 'sms') {
        const { attributes } = await c.var.body.read('sms');
        await saveSmsTemplate(db, id.kind, id.language, attributes.text, c.get('user').id, nowOf(deps));
        const saved = (await allSmsTemplates(db)).find((t) => t.kind === id.kind && t.language === id.language)!;
        return sendResource(c, smsTemplateResource(saved));
      }
      const { attributes } = await c.var.body.read('email');
      await saveTemplate(db, id.kind, id.language, attributes, c.get('user').id, nowOf(deps));
      const saved = (await allTemplates(db)).find((t) => t.kind === id.kind && t.language === id.language)!;
      return sendResource(c, mailTemplateResource(saved));
    },
  );

  app.delete('/:id', describe({ summary: 'Put the shipped default template back' }), requireRole(...STAFF_ADMIN_ROLES), async (c) => {
    const id = templateId(c.req.param('id'));
    if (!id) throw notFound('message template');
    if (id.channel === 'sms') await saveSmsTemplate(db, id.kind, id.language, null, c.get('user').id, nowOf(deps));
    else await saveTemplate(db, id.kind, id.language, null, c.get('user').id, nowOf(deps));
    return c.body(null, 204);
  });

  return app;
}

export function messageSettingsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  app.use('*', requireRole(...STAFF_ROLES));

  const settingsOf = async (engagementId: number) =>
    (await messageSettingsOf(db, engagementId)).map((s) => toResource(MESSAGE_SETTING_TYPE, `${engagementId}.${s.kind}`, { ...s }));

  app.get('/', describe(wholeListRead("An engagement's messages: each on or off, with its delay", MESSAGE_SETTING, SETTINGS_QUERY)), (c) =>
    answerWholeList(c, async () => {
      const engagement = await visibleEngagement(db, c.get('user'), c.var.query.engagementId);
      if (!engagement) throw notFound('engagement');
      return settingsOf(engagement.id);
    }),
  );

  app.patch(
    '/:id',
    describe(resourceUpdate('Turn a message on or off for an engagement, with its delay', MESSAGE_SETTING, MessageSettingInput)),
    requireRole(...STAFF_ADMIN_ROLES),
    async (c) => {
      const [rawEngagement, kind, extra] = c.req.param('id').split('.');
      if (extra !== undefined || !isMessageKind(kind)) throw notFound('message setting');
      const engagement = await visibleEngagement(db, c.get('user'), parseId(rawEngagement));
      if (!engagement) throw notFound('message setting');
      const { attributes } = await c.var.body.read();
      await saveMessageSetting(db, engagement.id, kind, attributes, nowOf(deps));
      return sendResource(c, (await settingsOf(engagement.id)).find((r) => r.id === `${engagement.id}.${kind}`)!);
    },
  );

  return app;
}

const PAGE = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

export function messageUnsubscribeRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();

  app.get('/:token', describe({ summary: 'Participant: the unsubscribe page of a message', access: 'public', answer: { media: 'text/html' } }), async (c) => {
    if (!(await unsubscribeByToken(db, c.req.param('token'), nowOf(deps), false)))
      return answerText(c, PAGE('Link not valid', '<p>This unsubscribe link is not valid.</p>'), 404, { 'Content-Type': 'text/html; charset=utf-8' });
    // A GET never unsubscribes: mail scanners follow links. The button posts, as one-click clients do.
    return answerText(
      c,
      PAGE(
        'Unsubscribe',
        '<p>Stop all e-mail from this study service to your address?</p><form method="post"><button type="submit">Unsubscribe</button></form>',
      ),
      200,
      {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    );
  });

  app.post('/:token', describe({ summary: 'Participant: one-click unsubscribe (RFC 8058)', access: 'public', answer: { media: 'text/html' } }), async (c) => {
    if (!(await unsubscribeByToken(db, c.req.param('token'), nowOf(deps), true))) throw notFound('unsubscribe link');
    return answerText(c, PAGE('Unsubscribed', '<p>You will receive no more e-mail from us.</p>'), 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
  });

  return app;
}
