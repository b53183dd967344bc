/**
 * A versioned survey's messages (SPEC section 3, oFormMessages): one text per message type and
 * language for each version, with defaults in English and Spanish for a version that has none.
 */
import * as v from 'valibot';
import { isApiIsoCode } from '../i18n';
import { message } from '../validation/messages';
import { idNumber } from './fields';
import { recordId, resourceAnswer, type Answered } from './answers';
import { ISO_CODE_FORMAT } from './language';

export const OFORM_MESSAGE_TYPE = 'o-form-messages';
export const OFORM_DEFAULT_MESSAGE_TYPE = 'o-form-default-messages';

export const SURVEY_MESSAGE_TYPES = [
  'completed_contact_form',
  'no_trial_sites_consent',
  'no_trial_sites_contact_form',
  'not_active_consent',
  'not_active_contact_form',
  'not_qualified_consent',
  'not_qualified_contact_form',
  'trial_site_selected_consent',
  'trial_site_selected_contact_form',
] as const;
export type SurveyMessageType = (typeof SURVEY_MESSAGE_TYPES)[number];

/** What staff read for each message type (the builder, the translations grid and its CSV). */
export const MESSAGE_TYPE_LABELS = {
  completed_contact_form: 'Completed: contact form',
  no_trial_sites_consent: 'No trial sites: consent',
  no_trial_sites_contact_form: 'No trial sites: contact form',
  not_active_consent: 'Not active: consent',
  not_active_contact_form: 'Not active: contact form',
  not_qualified_consent: 'Not qualified: consent',
  not_qualified_contact_form: 'Not qualified: contact form',
  trial_site_selected_consent: 'Trial site selected: consent',
  trial_site_selected_contact_form: 'Trial site selected: contact form',
} as const satisfies Record<SurveyMessageType, string>;

const text = v.pipe(v.string(message('required')), v.maxLength(5000, message('max', { length: 5000 })));

export const SurveyMessageInput = v.strictObject({
  oFormVersionId: idNumber(),
  messageType: v.picklist(SURVEY_MESSAGE_TYPES, `Choose one of: ${SURVEY_MESSAGE_TYPES.join(', ')}.`),
  language: v.optional(v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT)), 'en'),
  message: text,
});
export const SurveyMessagePatch = v.strictObject({ message: text });

/** A version's own text for one message type and language. */
export const OFORM_MESSAGE = resourceAnswer(
  OFORM_MESSAGE_TYPE,
  v.object({
    oFormIdentity: v.string(),
    oFormVersionId: recordId(),
    messageType: v.picklist(SURVEY_MESSAGE_TYPES),
    language: v.pipe(v.string(), v.description("The language's ISO code.")),
    message: v.string(),
  }),
);
export type SurveyMessage = Answered<typeof OFORM_MESSAGE>;

/** A default text (id `messageType:language`), what a version says until staff write their own. */
export const OFORM_DEFAULT_MESSAGE = resourceAnswer(
  OFORM_DEFAULT_MESSAGE_TYPE,
  v.object({ messageType: v.picklist(SURVEY_MESSAGE_TYPES), language: v.picklist(['en', 'es']), message: v.string() }),
);
export type DefaultSurveyMessage = Answered<typeof OFORM_DEFAULT_MESSAGE>;

/** What a survey says at each outcome until staff write their own, in English and Spanish. */
export const DEFAULT_SURVEY_MESSAGES: Record<SurveyMessageType, { en: string; es: string }> = {
  completed_contact_form: {
    en: 'Thank you! A member of the study team will contact you soon.',
    es: '¡Gracias! Un miembro del equipo del estudio se pondrá en contacto con usted pronto.',
  },
  no_trial_sites_consent: {
    en: 'May we contact you when a study site opens near you?',
    es: '¿Podemos contactarle cuando se abra un centro del estudio cerca de usted?',
  },
  no_trial_sites_contact_form: {
    en: 'There is no study site near you at the moment. Leave your details and we will let you know when one opens.',
    es: 'En este momento no hay un centro del estudio cerca de usted. Deje sus datos y le avisaremos cuando se abra uno.',
  },
  not_active_consent: {
    en: 'May we contact you about other studies that may suit you?',
    es: '¿Podemos contactarle sobre otros estudios que puedan ser adecuados para usted?',
  },
  not_active_contact_form: {
    en: 'This study is not enrolling at the moment. Leave your details to hear about other studies.',
    es: 'Este estudio no está inscribiendo en este momento. Deje sus datos para saber de otros estudios.',
  },
  not_qualified_consent: {
    en: 'May we contact you about other studies that may suit you?',
    es: '¿Podemos contactarle sobre otros estudios que puedan ser adecuados para usted?',
  },
  not_qualified_contact_form: {
    en: 'Thank you for your time. Based on your answers this study is not a match, but others may be.',
    es: 'Gracias por su tiempo. Según sus respuestas este estudio no es adecuado, pero otros podrían serlo.',
  },
  trial_site_selected_consent: {
    en: 'I agree to be contacted by the study team about this study.',
    es: 'Acepto que el equipo del estudio me contacte sobre este estudio.',
  },
  trial_site_selected_contact_form: {
    en: 'Thank you for choosing a study site. Leave your details so the study team can reach you.',
    es: 'Gracias por elegir un centro del estudio. Deje sus datos para que el equipo del estudio pueda contactarle.',
  },
};
