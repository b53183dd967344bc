/**
 * Messages: e-mail the product sends by itself through its outbox (server/messages/), what
 * staff see of them (never the body, and a participant's address only on a reveal), and the
 * templates staff edit per kind and language.
 */
import * as v from 'valibot';
import { count, instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

export const MESSAGE_TYPE = 'messages';
export const MESSAGE_TEMPLATE_TYPE = 'message-templates';
export const MESSAGE_SETTING_TYPE = 'message-settings';

/**
 * - newReferral: to the site's coordinators and the engagement's recruiters;
 * - firstContactOverdue: to the same people, when the first contact is past due;
 * - participantConfirmation: to the participant who consented, in their language;
 * - participantReminder: to the same participant, when no contact attempt was logged by the due time;
 * - siteOpened: to a lead kept because no site was near, when a site opens within reach (what they consented to);
 * - recruiterDigest: once a day to each recruiter, the new and overdue referrals of their engagements by site.
 */
export const MESSAGE_KINDS = ['newReferral', 'firstContactOverdue', 'participantConfirmation', 'participantReminder', 'siteOpened', 'recruiterDigest'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const isMessageKind = (value: unknown): value is MessageKind => MESSAGE_KINDS.some((k) => k === value);
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  newReferral: 'New referral',
  firstContactOverdue: 'First contact overdue',
  participantConfirmation: 'Participant confirmation',
  participantReminder: 'Participant reminder',
  siteOpened: 'Site opened near a lead',
  recruiterDigest: 'Daily digest for recruiters',
};

export const MESSAGE_STATUSES = ['pending', 'waiting', 'retrying', 'sent', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_LANGUAGES = ['en', 'es'] as const;

/** How a message goes: e-mail, or a text (SMS) through the SMS provider. */
export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = { email: 'E-mail', sms: 'SMS' };

/** A message as staff list it, no body and no address: the one description of its attributes. */
export const MESSAGE = resourceAnswer(
  MESSAGE_TYPE,
  v.object({
    kind: v.picklist(MESSAGE_KINDS),
    channel: v.picklist(MESSAGE_CHANNELS),
    audience: v.picklist(['staff', 'participant']),
    recipient: v.pipe(v.string(), v.description('A staff recipient by username; a participant as "participant" (their address only on a reveal).')),
    engagementId: v.nullable(recordId()),
    referralId: v.nullable(recordId()),
    language: v.string(),
    subject: v.string(),
    messageId: v.string(),
    status: v.picklist(MESSAGE_STATUSES),
    attempts: count(),
    lastError: nullableText(),
    nextAttemptAt: v.nullable(instant()),
    lastAttemptAt: v.nullable(instant()),
    sentAt: v.nullable(instant()),
    created: instant(),
  }),
);
export type Message = Answered<typeof MESSAGE>;

export const MESSAGE_SORTS = ['created', 'status', 'kind', 'attempts', 'sentAt'] as const;
export const MESSAGE_DEFAULT_SORT = '-created';
export const MESSAGE_FILTERS = ['status', 'kind', 'channel', 'engagementId', 'referralId'] as const;

/** The words a template may hold, per kind: `{{name}}` in its subject, HTML and text. */
export const MESSAGE_PLACEHOLDERS: Record<MessageKind, readonly string[]> = {
  newReferral: ['engagement', 'site', 'due', 'link'],
  firstContactOverdue: ['engagement', 'site', 'due', 'link'],
  participantConfirmation: ['engagement', 'site', 'town', 'unsubscribe'],
  participantReminder: ['engagement', 'site', 'town', 'unsubscribe'],
  siteOpened: ['engagement', 'site', 'town', 'unsubscribe'],
  recruiterDigest: ['date', 'new', 'overdue', 'sites', 'link'],
};

export const MessageTemplateInput = v.strictObject({
  subject: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'This field is required.'),
    v.maxLength(200, 'At most 200 characters.'),
    v.regex(/^[^\r\n]*$/, 'One line only.'),
  ),
  html: v.pipe(v.string(), v.minLength(1, 'This field is required.'), v.maxLength(20_000, 'At most 20000 characters.')),
  text: v.pipe(v.string(), v.minLength(1, 'This field is required.'), v.maxLength(20_000, 'At most 20000 characters.')),
});

/**
 * The kinds that also go as a text (SMS), each with a text template per language: only the
 * participant's confirmation. A text holds the engagement, the site and its town — no link,
 * no unsubscribe token (a text is stopped by replying STOP).
 */
export const SMS_KINDS = ['participantConfirmation'] as const satisfies readonly MessageKind[];
export type SmsKind = (typeof SMS_KINDS)[number];
export const isSmsKind = (value: unknown): value is SmsKind => SMS_KINDS.some((k) => k === value);
export const SMS_PLACEHOLDERS: Record<SmsKind, readonly string[]> = {
  participantConfirmation: ['engagement', 'site', 'town'],
};

/** Twilio's limit on a message body (it splits longer ones into segments up to this). */
export const SMS_MAX_CHARACTERS = 1600;

export const SmsTemplateInput = v.strictObject({
  text: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'This field is required.'),
    v.maxLength(SMS_MAX_CHARACTERS, `At most ${SMS_MAX_CHARACTERS} characters.`),
    // Carriers require every text to say how to opt out; STOP is what the inbound webhook honours.
    v.regex(/\bSTOP\b/, 'Say how to opt out: the text must hold the word STOP.'),
  ),
});

// The GSM 03.38 alphabet: a text of these alone goes 7 bits a character; any other character
// (such as á or í) makes the whole text UCS-2, 16 bits a character.
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
// Taking two places each (an escape and the character).
const GSM_EXTENDED = '^{}\\[~]|€\f';

export const SmsLength = v.object({
  characters: count(),
  encoding: v.picklist(['GSM-7', 'UCS-2']),
  segments: v.pipe(count(), v.description('The parts a carrier sends it in.')),
});
export type SmsLength = v.InferOutput<typeof SmsLength>;

/**
 * GET /api/message-templates/{id}/preview: the template filled with demo values, as a JSON:API
 * document with meta only: an e-mail's subject, HTML and plain text; a text's (SMS) text and length.
 */
export const MessageTemplatePreviewDocument = v.object({
  meta: v.union([v.object({ subject: v.string(), html: v.string(), text: v.string() }), v.object({ text: v.string(), ...SmsLength.entries })]),
});
export type MessageTemplatePreview = v.InferOutput<typeof MessageTemplatePreviewDocument>['meta'];

/** POST /api/messages/{id}/reveal: the recipient's address, as a JSON:API document with meta only (the reveal is audited). */
export const MessageRevealedDocument = v.object({ meta: v.object({ to: v.string() }) });

/** How long a text is as the carriers count it: its characters, its encoding and the segments it is sent in. */
export function smsLength(text: string): SmsLength {
  const chars = Array.from(text);
  const gsm = chars.every((ch) => GSM_BASIC.includes(ch) || GSM_EXTENDED.includes(ch));
  // UCS-2 counts 16-bit units: a character outside the basic plane (an emoji) takes two.
  const units = gsm ? chars.reduce((n, ch) => n + (GSM_EXTENDED.includes(ch) ? 2 : 1), 0) : text.length;
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return { characters: chars.length, encoding: gsm ? 'GSM-7' : 'UCS-2', segments: units === 0 ? 0 : units <= single ? 1 : Math.ceil(units / multi) };
}

export const MessageSettingInput = v.strictObject({
  isEnabled: v.boolean('Must be true or false.'),
  delayMinutes: v.pipe(
    v.number('Must be a number of minutes.'),
    v.integer('Must be a whole number of minutes.'),
    v.minValue(0, 'At least 0.'),
    v.maxValue(43_200, 'At most 43200 (30 days).'),
  ),
});

/**
 * A template staff edit, per kind and language: a mail's (id `kind.language`: subject, HTML and
 * text) or a text's (id `kind.language.sms`: its text alone, no subject and no HTML).
 */
export const MESSAGE_TEMPLATE = resourceAnswer(
  MESSAGE_TEMPLATE_TYPE,
  v.object({
    channel: v.picklist(MESSAGE_CHANNELS),
    kind: v.picklist(MESSAGE_KINDS),
    language: v.picklist(MESSAGE_LANGUAGES),
    subject: v.pipe(v.optional(v.string()), v.description("A mail's subject (a text has none).")),
    html: v.pipe(v.optional(v.string()), v.description("A mail's HTML part (a text has none).")),
    text: v.string(),
    isDefault: v.pipe(v.boolean(), v.description('Whether it is the shipped default, not edited yet.')),
    placeholders: v.pipe(v.array(v.string()), v.description('The {{names}} it may hold.')),
  }),
);
type AnsweredTemplate = Answered<typeof MESSAGE_TEMPLATE>;
/** A mail's template or a text's, told apart by `channel`. */
export type MessageTemplate =
  | (Omit<AnsweredTemplate, 'channel' | 'subject' | 'html'> & { channel: 'email'; subject: string; html: string })
  | (Omit<AnsweredTemplate, 'channel' | 'subject' | 'html'> & { channel: 'sms' });

/** An engagement's message of one kind (id `engagementId.kind`): on or off, and its delay. */
export const MESSAGE_SETTING = resourceAnswer(
  MESSAGE_SETTING_TYPE,
  v.object({ engagementId: recordId(), kind: v.picklist(MESSAGE_KINDS), isEnabled: v.boolean(), delayMinutes: count() }),
);
export type MessageSetting = Answered<typeof MESSAGE_SETTING>;
