/**
 * What is texted, and the consent to it: one confirmation text per referral, in the participant's
 * language (English, Spanish), naming the study, the site and its town and how to stop; never an
 * answer, a contact value or the condition. The SMS consent is offered beside the contact form
 * when the screener asks for a phone number, and kept word for word with the contact.
 */
import { templateLanguage } from './templates';

const lang = (language: string) => templateLanguage(language.slice(0, 2).toLowerCase());

const CONSENT = {
  en: 'You may text me at this number about this study (one confirmation text; message and data rates may apply). Reply STOP to opt out, HELP for help.',
  es: 'Pueden enviarme mensajes de texto a este número sobre este estudio (un mensaje de confirmación; pueden aplicarse tarifas de mensajes y datos). Responda STOP para no recibir más, HELP para obtener ayuda.',
};

const CONFIRMATION = {
  en: (f: SmsFacts) => `${f.engagement}: thank you. ${f.site}${f.town ? `, ${f.town},` : ''} will contact you about next steps. Reply STOP to opt out.`,
  es: (f: SmsFacts) => `${f.engagement}: gracias. ${f.site}${f.town ? `, ${f.town},` : ''} se pondrá en contacto con usted. Responda STOP para no recibir más mensajes.`,
};

const HELP = {
  en: 'Study recruitment texts. We send one confirmation per study you signed up for. Reply STOP to opt out.',
};

export interface SmsFacts {
  engagement: string;
  site: string;
  town: string;
}

/** The SMS consent in the participant's language (English where there is none). */
export const smsConsentText = (language: string) => CONSENT[lang(language)];

export const smsConfirmationText = (language: string, facts: SmsFacts) => CONFIRMATION[lang(language)](facts);

/** The answer to HELP (TwiML escapes it). */
export const SMS_HELP_TEXT = HELP.en;
