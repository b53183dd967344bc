/**
 * What is texted, and the consent to it: one confirmation text per referral, in the participant's
 * language (English, Spanish), naming the study, the site and its town and how to stop; never an
 * answer, a contact value or the condition. The text is a template per kind and language
 * (SMS_KINDS), shipped here and editable by staff (sms_templates), filled as the e-mail templates
 * are: only the kind's placeholders (SMS_PLACEHOLDERS), any other left out. The SMS consent is
 * offered beside the contact form when the screener asks for a phone number, and kept word for
 * word with the contact.
 */
import { and, eq } from 'drizzle-orm';
import { MESSAGE_LANGUAGES, SMS_KINDS, SMS_PLACEHOLDERS, type SmsKind } from '@core/model/message';
import type { Conn } from '../db/open';
import { smsTemplates } from '../db/schema';
import { fillPlaceholders, templateLanguage } from './templates';

type Lang = (typeof MESSAGE_LANGUAGES)[number];

const lang = (language: string) => templateLanguage(language.slice(0, 2).toLowerCase());

const CONSENT = {
  en: 'You may text me at this number about this study (one confirmation text; message and data rates may apply). Reply STOP to opt out, HELP for help.',
  es: 'Pueden enviarme mensajes de texto a este número sobre este estudio (un mensaje de confirmación; pueden aplicarse tarifas de mensajes y datos). Responda STOP para no recibir más, HELP para obtener ayuda.',
};

const DEFAULT_TEXTS: Record<SmsKind, Record<Lang, string>> = {
  participantConfirmation: {
    en: '{{engagement}}: thank you. {{site}} ({{town}}) will contact you about next steps. Reply STOP to opt out.',
    es: '{{engagement}}: gracias. {{site}} ({{town}}) se pondrá en contacto con usted. Responda STOP para no recibir más mensajes.',
  },
};

const HELP = {
  en: 'Study recruitment texts. We send one confirmation per study you signed up for. Reply STOP to opt out.',
};

/** The SMS consent in the participant's language (English where there is none). */
export const smsConsentText = (language: string) => CONSENT[lang(language)];

/** The answer to HELP (TwiML escapes it). */
export const SMS_HELP_TEXT = HELP.en;

/** The text template in force for a kind and language: staff's edit, else the shipped default. */
export async function smsTemplateOf(db: Conn, kind: SmsKind, language: string): Promise<{ text: string; isDefault: boolean }> {
  const l = lang(language);
  const [row] = await db
    .select({ text: smsTemplates.text })
    .from(smsTemplates)
    .where(and(eq(smsTemplates.kind, kind), eq(smsTemplates.language, l)));
  return row ? { text: row.text, isDefault: false } : { text: DEFAULT_TEXTS[kind][l], isDefault: true };
}

export async function allSmsTemplates(db: Conn) {
  const rows = await db.select().from(smsTemplates);
  return SMS_KINDS.flatMap((kind) =>
    MESSAGE_LANGUAGES.map((language) => {
      const row = rows.find((r) => r.kind === kind && r.language === language);
      return { kind, language, text: row?.text ?? DEFAULT_TEXTS[kind][language], isDefault: !row, placeholders: [...SMS_PLACEHOLDERS[kind]] };
    }),
  );
}

/** Saves staff's text template; `null` puts the shipped default back. */
export async function saveSmsTemplate(db: Conn, kind: SmsKind, language: Lang, text: string | null, userId: number, now: Date): Promise<void> {
  if (text === null) {
    await db.delete(smsTemplates).where(and(eq(smsTemplates.kind, kind), eq(smsTemplates.language, language)));
    return;
  }
  await db
    .insert(smsTemplates)
    .values({ kind, language, text, modifiedBy: userId, modified: now })
    .onConflictDoUpdate({ target: [smsTemplates.kind, smsTemplates.language], set: { text, modifiedBy: userId, modified: now } });
}

/** The text with its placeholders filled; brackets left empty by a value that is missing (a site with no town) are dropped. */
export const renderSms = (kind: SmsKind, text: string, values: Readonly<Record<string, string>>) =>
  fillPlaceholders(text, SMS_PLACEHOLDERS[kind], values).replace(/ ?\(\s*\)/g, '');
