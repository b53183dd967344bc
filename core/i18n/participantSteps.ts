/** Strings of the steps after the survey (ZIP, sites, contact form, consent) in English, the fallback; Spanish in ./participantEs.ts. */
import { loadedStrings, PARTICIPANT_COUNT, pickStrings } from './participant';

const en = {
  submit: 'Submit',
  zipTitle: 'Find a study site near you',
  zipLabel: 'ZIP code',
  search: 'Find sites',
  sitesTitle: 'Choose a study site',
  // {s}: the plural's s (none for exactly 1); `near` when the distance rounds to 0.
  miles: '{n} mile{s} away',
  near: 'Less than 0.1 miles away',
  contactTitle: 'Your contact details',
  consentTitle: 'Consent',
  accept: 'I accept the terms and conditions.',
  // A lead's form's way out (at notQualified, noTrialSites, notActive).
  noThanks: 'No thanks',
  // The site search outside the US: a country, then a postal code or a town there.
  country: 'Country',
  place: 'Postal code or town',
  km: '{n} km away',
  // A lead's optional place where the channel's region is not the US (a ZIP code in the US).
  postal: 'Postal code',
};

export type StepText = Record<keyof typeof en, string>;

export const stepStrings = (language?: string): StepText => pickStrings(en, loadedStrings(language), PARTICIPANT_COUNT);
