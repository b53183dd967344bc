/** A screener as its form holds it, and the labels shared by the list, the form and the view. */
import {
  SCREENER_OUTCOMES,
  SCREENER_STYLE_GROUPS,
  defaultScreenerStyles,
  emptyScreenerMessage,
  type Screener,
  type ScreenerOutcome,
  type ScreenerStyleGroup,
  type ScreenerStyles,
} from '@core/model/screener';

export const SCREENER_LABELS = {
  title: 'Title',
  description: 'Description',
  sponsorName: 'Sponsor',
  type: 'Type',
  isActive: 'Active',
  isLocked: 'Locked',
  isTest: 'Test',
  isInterestVisible: 'Interest Visible',
  engagements: 'Engagements',
  languages: 'Additional Languages',
  clonedFrom: 'Cloned From',
  created: 'Created',
  modified: 'Modified',
} as const;

export const OUTCOME_LABELS: Record<ScreenerOutcome, string> = {
  acceptance: 'Acceptance',
  notActive: 'Not Active',
  notQualified: 'Not Qualified',
  noTrialSites: 'No Trial Sites',
  qualified: 'Qualified',
  trialSiteSelected: 'Trial Site Selected',
  completed: 'Completed',
};

export const STYLE_GROUP_LABELS: Record<ScreenerStyleGroup, string> = {
  backButton: 'Back Button',
  checkbox: 'Checkbox',
  formField: 'Form Field',
  nextButton: 'Next Button',
  responseButton: 'Response Button',
  progressBar: 'Progress Bar',
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** e.g. 'Next Button Active'. */
export const colourLabel = (group: ScreenerStyleGroup, name: string) => `${STYLE_GROUP_LABELS[group]} ${capitalise(name)}`;

/** Colours as typed ('' for the widget's own), keyed `group.name`, plus the back button flag. */
export type StyleFormValues = { colours: Record<string, string>; backButtonShown: boolean };

export function toStyleFormValues(styles: ScreenerStyles = defaultScreenerStyles()): StyleFormValues {
  const colours: Record<string, string> = {};
  for (const [group, names] of Object.entries(SCREENER_STYLE_GROUPS) as [ScreenerStyleGroup, readonly string[]][]) {
    const values = (styles[group] ?? {}) as Record<string, unknown>;
    for (const name of names) colours[`${group}.${name}`] = typeof values[name] === 'string' ? (values[name] as string) : '';
  }
  return { colours, backButtonShown: styles.backButton?.isShown ?? true };
}

/** The API's nested styles (blank colours as null). */
export function toStylesInput(values: StyleFormValues): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [group, names] of Object.entries(SCREENER_STYLE_GROUPS) as [ScreenerStyleGroup, readonly string[]][]) {
    out[group] = {};
    for (const name of names) {
      const text = (values.colours[`${group}.${name}`] ?? '').trim();
      out[group][name] = text === '' ? null : text;
    }
  }
  out.backButton!.isShown = values.backButtonShown;
  return out;
}

export interface MessageFormValue {
  consentMessage: string;
  contactFormMessage: string;
  translations: Record<string, { consentMessage: string; contactFormMessage: string }>;
}
export type MessagesFormValues = Record<ScreenerOutcome, MessageFormValue>;

export function toMessagesFormValues(screener?: Screener): MessagesFormValues {
  return Object.fromEntries(
    SCREENER_OUTCOMES.map((outcome) => {
      const m = screener?.messages[outcome] ?? emptyScreenerMessage();
      const translations: MessageFormValue['translations'] = {};
      for (const [code, pair] of Object.entries(m.translations ?? {})) {
        translations[code] = { consentMessage: pair.consentMessage ?? '', contactFormMessage: pair.contactFormMessage ?? '' };
      }
      return [outcome, { consentMessage: m.consentMessage ?? '', contactFormMessage: m.contactFormMessage ?? '', translations }];
    }),
  ) as MessagesFormValues;
}

/** Only the languages still chosen keep their translations. */
export function toMessagesInput(values: MessagesFormValues, isoCodes: readonly string[]) {
  return Object.fromEntries(
    SCREENER_OUTCOMES.map((outcome) => {
      const m = values[outcome];
      const translations = Object.fromEntries(Object.entries(m.translations).filter(([code]) => isoCodes.includes(code)));
      return [outcome, { consentMessage: m.consentMessage, contactFormMessage: m.contactFormMessage, translations }];
    }),
  );
}
