/**
 * Message templates: a subject, an HTML part and a plain-text part per kind and language. The
 * defaults ship here in English and Spanish; staff may replace any of them (message_templates),
 * their HTML sanitized on save as every staff-authored participant HTML is. Rendering fills
 * `{{name}}` placeholders (MESSAGE_PLACEHOLDERS) with values escaped for the HTML part; an
 * unknown placeholder is left out, so no other value can be pulled into a message.
 */
import { and, eq } from 'drizzle-orm';
import { MESSAGE_KINDS, MESSAGE_LANGUAGES, MESSAGE_PLACEHOLDERS, type MessageKind } from '@core/model/message';
import type { Conn } from '../db/open';
import { messageTemplates } from '../db/schema';
import { sanitizeHtml } from '../security/sanitizeHtml';

export interface Template {
  subject: string;
  html: string;
  text: string;
}

type Lang = (typeof MESSAGE_LANGUAGES)[number];

const DEFAULTS: Record<MessageKind, Record<Lang, Template>> = {
  newReferral: {
    en: {
      subject: 'New referral for {{site}} ({{engagement}})',
      html: '<p>A new referral is waiting for <strong>{{site}}</strong> in {{engagement}}.</p><p>First contact is due by {{due}}.</p><p><a href="{{link}}">Open the referral</a></p>',
      text: 'A new referral is waiting for {{site}} in {{engagement}}.\n\nFirst contact is due by {{due}}.\n\nOpen the referral: {{link}}\n',
    },
    es: {
      subject: 'Nueva derivación para {{site}} ({{engagement}})',
      html: '<p>Hay una nueva derivación para <strong>{{site}}</strong> en {{engagement}}.</p><p>El primer contacto vence el {{due}}.</p><p><a href="{{link}}">Abrir la derivación</a></p>',
      text: 'Hay una nueva derivación para {{site}} en {{engagement}}.\n\nEl primer contacto vence el {{due}}.\n\nAbrir la derivación: {{link}}\n',
    },
  },
  firstContactOverdue: {
    en: {
      subject: 'First contact overdue: {{site}} ({{engagement}})',
      html: '<p>A referral for <strong>{{site}}</strong> in {{engagement}} has had no first contact. It was due by {{due}}.</p><p><a href="{{link}}">Open the referral</a></p>',
      text: 'A referral for {{site}} in {{engagement}} has had no first contact. It was due by {{due}}.\n\nOpen the referral: {{link}}\n',
    },
    es: {
      subject: 'Primer contacto vencido: {{site}} ({{engagement}})',
      html: '<p>Una derivación para <strong>{{site}}</strong> en {{engagement}} no ha tenido primer contacto. Vencía el {{due}}.</p><p><a href="{{link}}">Abrir la derivación</a></p>',
      text: 'Una derivación para {{site}} en {{engagement}} no ha tenido primer contacto. Vencía el {{due}}.\n\nAbrir la derivación: {{link}}\n',
    },
  },
  participantConfirmation: {
    en: {
      subject: 'Thank you for your interest in {{engagement}}',
      html: '<p>Thank you for your interest in {{engagement}}.</p><p>What happens next: the study team at <strong>{{site}}</strong> ({{town}}) will contact you soon.</p><p>You can withdraw at any time by telling the study team. To receive no more e-mail from us, <a href="{{unsubscribe}}">unsubscribe</a>.</p>',
      text: 'Thank you for your interest in {{engagement}}.\n\nWhat happens next: the study team at {{site}} ({{town}}) will contact you soon.\n\nYou can withdraw at any time by telling the study team. To receive no more e-mail from us, unsubscribe: {{unsubscribe}}\n',
    },
    es: {
      subject: 'Gracias por su interés en {{engagement}}',
      html: '<p>Gracias por su interés en {{engagement}}.</p><p>Qué sigue: el equipo del estudio en <strong>{{site}}</strong> ({{town}}) se pondrá en contacto con usted pronto.</p><p>Puede retirarse en cualquier momento diciéndoselo al equipo del estudio. Para no recibir más correos nuestros, <a href="{{unsubscribe}}">cancele la suscripción</a>.</p>',
      text: 'Gracias por su interés en {{engagement}}.\n\nQué sigue: el equipo del estudio en {{site}} ({{town}}) se pondrá en contacto con usted pronto.\n\nPuede retirarse en cualquier momento diciéndoselo al equipo del estudio. Para no recibir más correos nuestros, cancele la suscripción: {{unsubscribe}}\n',
    },
  },
  participantReminder: {
    en: {
      subject: 'About your interest in {{engagement}}',
      html: '<p>You left your details for {{engagement}}. The study team at <strong>{{site}}</strong> ({{town}}) has not reached you yet and will try again soon.</p><p>You can withdraw at any time by telling the study team. To receive no more e-mail from us, <a href="{{unsubscribe}}">unsubscribe</a>.</p>',
      text: 'You left your details for {{engagement}}. The study team at {{site}} ({{town}}) has not reached you yet and will try again soon.\n\nYou can withdraw at any time by telling the study team. To receive no more e-mail from us, unsubscribe: {{unsubscribe}}\n',
    },
    es: {
      subject: 'Sobre su interés en {{engagement}}',
      html: '<p>Usted dejó sus datos para {{engagement}}. El equipo del estudio en <strong>{{site}}</strong> ({{town}}) aún no ha podido contactarle y lo intentará de nuevo pronto.</p><p>Puede retirarse en cualquier momento diciéndoselo al equipo del estudio. Para no recibir más correos nuestros, <a href="{{unsubscribe}}">cancele la suscripción</a>.</p>',
      text: 'Usted dejó sus datos para {{engagement}}. El equipo del estudio en {{site}} ({{town}}) aún no ha podido contactarle y lo intentará de nuevo pronto.\n\nPuede retirarse en cualquier momento diciéndoselo al equipo del estudio. Para no recibir más correos nuestros, cancele la suscripción: {{unsubscribe}}\n',
    },
  },
  siteOpened: {
    en: {
      subject: 'A study site has opened near you: {{engagement}}',
      html: '<p>When you looked at {{engagement}}, no study site was near you. One has now opened: <strong>{{site}}</strong> ({{town}}).</p><p>As you agreed, the study team may contact you with the details you left. You can say no at any time.</p><p>To receive no more e-mail from us, <a href="{{unsubscribe}}">unsubscribe</a>.</p>',
      text: 'When you looked at {{engagement}}, no study site was near you. One has now opened: {{site}} ({{town}}).\n\nAs you agreed, the study team may contact you with the details you left. You can say no at any time.\n\nTo receive no more e-mail from us, unsubscribe: {{unsubscribe}}\n',
    },
    es: {
      subject: 'Se ha abierto un centro del estudio cerca de usted: {{engagement}}',
      html: '<p>Cuando consultó {{engagement}}, no había ningún centro del estudio cerca de usted. Ahora se ha abierto uno: <strong>{{site}}</strong> ({{town}}).</p><p>Como usted aceptó, el equipo del estudio puede contactarle con los datos que dejó. Puede decir que no en cualquier momento.</p><p>Para no recibir más correos nuestros, <a href="{{unsubscribe}}">cancele la suscripción</a>.</p>',
      text: 'Cuando consultó {{engagement}}, no había ningún centro del estudio cerca de usted. Ahora se ha abierto uno: {{site}} ({{town}}).\n\nComo usted aceptó, el equipo del estudio puede contactarle con los datos que dejó. Puede decir que no en cualquier momento.\n\nPara no recibir más correos nuestros, cancele la suscripción: {{unsubscribe}}\n',
    },
  },
  recruiterDigest: {
    en: {
      subject: 'Referrals on {{date}}: {{new}} new, {{overdue}} overdue',
      html: '<p>Your referrals on {{date}}: <strong>{{new}}</strong> new in the last day, <strong>{{overdue}}</strong> with first contact overdue.</p><p style="white-space: pre-line">{{sites}}</p><p><a href="{{link}}">Open the work queue</a></p>',
      text: 'Your referrals on {{date}}: {{new}} new in the last day, {{overdue}} with first contact overdue.\n\n{{sites}}\n\nOpen the work queue: {{link}}\n',
    },
    es: {
      subject: 'Derivaciones del {{date}}: {{new}} nuevas, {{overdue}} vencidas',
      html: '<p>Sus derivaciones del {{date}}: <strong>{{new}}</strong> nuevas en el último día, <strong>{{overdue}}</strong> con el primer contacto vencido.</p><p style="white-space: pre-line">{{sites}}</p><p><a href="{{link}}">Abrir la cola de trabajo</a></p>',
      text: 'Sus derivaciones del {{date}}: {{new}} nuevas en el último día, {{overdue}} con el primer contacto vencido.\n\n{{sites}}\n\nAbrir la cola de trabajo: {{link}}\n',
    },
  },
};

/** A template's language: one shipped, else English. */
export const templateLanguage = (language: string): Lang => ((MESSAGE_LANGUAGES as readonly string[]).includes(language) ? (language as Lang) : 'en');

export const defaultTemplate = (kind: MessageKind, language: string): Template => DEFAULTS[kind][templateLanguage(language)];

/** The template in force: staff's edit, else the shipped default. */
export async function templateOf(db: Conn, kind: MessageKind, language: string): Promise<Template & { isDefault: boolean }> {
  const lang = templateLanguage(language);
  const [row] = await db
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.kind, kind), eq(messageTemplates.language, lang)));
  return row ? { subject: row.subject, html: row.html, text: row.text, isDefault: false } : { ...DEFAULTS[kind][lang], isDefault: true };
}

export async function allTemplates(db: Conn) {
  const rows = await db.select().from(messageTemplates);
  return MESSAGE_KINDS.flatMap((kind) =>
    MESSAGE_LANGUAGES.map((language) => {
      const row = rows.find((r) => r.kind === kind && r.language === language);
      const t = row ?? DEFAULTS[kind][language];
      return { kind, language, subject: t.subject, html: t.html, text: t.text, isDefault: !row, placeholders: [...MESSAGE_PLACEHOLDERS[kind]] };
    }),
  );
}

/** Saves staff's template (HTML sanitized); `null` puts the shipped default back. */
export async function saveTemplate(db: Conn, kind: MessageKind, language: Lang, input: Template | null, userId: number, now: Date): Promise<void> {
  if (input === null) {
    await db.delete(messageTemplates).where(and(eq(messageTemplates.kind, kind), eq(messageTemplates.language, language)));
    return;
  }
  const values = { subject: input.subject, html: sanitizeHtml(input.html), text: input.text, modifiedBy: userId, modified: now };
  await db
    .insert(messageTemplates)
    .values({ kind, language, ...values })
    .onConflictDoUpdate({ target: [messageTemplates.kind, messageTemplates.language], set: values });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** `source` with each `{{name}}` of `allowed` filled (through `escapeValue`) and any other left out. */
export const fillPlaceholders = (
  source: string,
  allowed: readonly string[],
  values: Readonly<Record<string, string>>,
  escapeValue: (s: string) => string = (s) => s,
) => source.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => (allowed.includes(name) ? escapeValue(values[name] ?? '') : ''));

/** The template with its placeholders filled: values escaped in the HTML part, subject kept to one line. */
export function render(kind: MessageKind, template: Template, values: Record<string, string>): Template {
  const fill = (source: string, escapeValue: (s: string) => string) => fillPlaceholders(source, MESSAGE_PLACEHOLDERS[kind], values, escapeValue);
  return {
    subject: fill(template.subject, (s) => s).replace(/[\r\n]+/g, ' '),
    html: fill(template.html, escapeHtml),
    text: fill(template.text, (s) => s),
  };
}
