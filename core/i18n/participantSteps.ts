/** Strings of the steps after the survey (ZIP, sites, contact form, consent), per language; English is the fallback. */
import { pickStrings } from './participant';

const en = {
  submit: 'Submit',
  zipTitle: 'Find a study site near you',
  zipLabel: 'ZIP code',
  search: 'Find sites',
  sitesTitle: 'Choose a study site',
  miles: '{n} miles away',
  contactTitle: 'Your contact details',
  consentTitle: 'Consent',
  accept: 'I accept the terms and conditions.',
};

export type StepText = Record<keyof typeof en, string>;

/** Every string in Spanish too: the type asks for each key of the English ones. */
const es: StepText = {
  submit: 'Enviar',
  zipTitle: 'Busque un centro del estudio cerca de usted',
  zipLabel: 'Código postal',
  search: 'Buscar centros',
  sitesTitle: 'Elija un centro del estudio',
  miles: 'a {n} millas',
  contactTitle: 'Sus datos de contacto',
  consentTitle: 'Consentimiento',
  accept: 'Acepto los términos y condiciones.',
};

export const stepStrings = (language?: string): StepText => pickStrings({ en, es }, language);
