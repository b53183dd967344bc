/**
 * Screeners (SPEC sections 3, 7, 9): qualification questionnaires with their styles, outcome
 * messages, additional languages, engagements and contact fields.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { isColorHex } from '../validation/rules';
import { flag, idNumber, optionalText, requiredText } from './fields';
import { isApiIsoCode } from '../i18n';
import { ISO_CODE_FORMAT } from './language';
import { instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

export const SCREENER_TYPE = 'screeners';
export const SCREENER_DEFAULT_TYPE = 'super-screener';
export const SCREENER_SORTS = ['title', 'isActive', 'isLocked', 'isTest', 'screenerType', 'sponsorName', 'created', 'modified'] as const;
export const SCREENER_DEFAULT_SORT = '-isActive,title';

/** SPEC section 9. */
export const PROGRESS_BAR_DEFAULT_BACKGROUND = 'CCCCCC';

/** A colour as 6 or 2 hex digits without '#' (SPEC color_hex); blank or null means the widget's own. */
const colour = () =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(message('color_hex')),
        v.trim(),
        v.check((s) => s === '' || isColorHex(s), message('color_hex')),
        v.transform((s) => (s === '' ? null : s.toUpperCase())),
      ),
    ),
    null,
  );

/**
 * Every colour of SPEC section 3. Unknown keys are refused; missing ones take their default,
 * so a stored screener always has the whole shape.
 */
export const ScreenerStyles = v.strictObject({
  backButton: v.optional(v.strictObject({ active: colour(), hover: colour(), inactive: colour(), isShown: v.optional(flag(), true) }), {}),
  checkbox: v.optional(v.strictObject({ active: colour(), error: colour(), hover: colour(), inactive: colour() }), {}),
  formField: v.optional(v.strictObject({ helper: colour(), error: colour(), required: colour() }), {}),
  nextButton: v.optional(v.strictObject({ active: colour(), error: colour(), hover: colour() }), {}),
  responseButton: v.optional(v.strictObject({ active: colour(), error: colour(), hover: colour() }), {}),
  progressBar: v.optional(
    v.strictObject({
      background: v.optional(
        v.pipe(
          v.nullable(v.string(message('color_hex'))),
          v.transform((s) => (s === null || s.trim() === '' ? PROGRESS_BAR_DEFAULT_BACKGROUND : s.trim())),
          v.check(isColorHex, message('color_hex')),
          v.transform((s) => s.toUpperCase()),
        ),
        PROGRESS_BAR_DEFAULT_BACKGROUND,
      ),
      color: colour(),
    }),
    {},
  ),
});
export type ScreenerStyles = v.InferOutput<typeof ScreenerStyles>;
export const defaultScreenerStyles = (): ScreenerStyles => v.parse(ScreenerStyles, {});

/** The style groups and their colour names, in SPEC order (the form and the view walk these). */
export const SCREENER_STYLE_GROUPS = {
  backButton: ['active', 'hover', 'inactive'],
  checkbox: ['active', 'error', 'hover', 'inactive'],
  formField: ['helper', 'error', 'required'],
  nextButton: ['active', 'error', 'hover'],
  responseButton: ['active', 'error', 'hover'],
  progressBar: ['background', 'color'],
} as const;
export type ScreenerStyleGroup = keyof typeof SCREENER_STYLE_GROUPS;

/** The outcomes that each carry a consent and a contact-form message (SPEC section 3). */
export const SCREENER_OUTCOMES = ['acceptance', 'notActive', 'notQualified', 'noTrialSites', 'qualified', 'trialSiteSelected', 'completed'] as const;
export type ScreenerOutcome = (typeof SCREENER_OUTCOMES)[number];

export const MESSAGE_MAX = 20_000;

const messageText = () =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((s) => s.length <= MESSAGE_MAX, message('max', { length: MESSAGE_MAX })),
        v.transform((s) => (s === '' ? null : s)),
      ),
    ),
    null,
  );

const translatedPair = v.pipe(
  v.strictObject({ consentMessage: messageText(), contactFormMessage: messageText() }),
  v.transform(
    (pair) => Object.fromEntries(Object.entries(pair).filter((e): e is [string, string] => !!e[1])) as { consentMessage?: string; contactFormMessage?: string },
  ),
);

/**
 * One outcome's pair of messages, with their translations: a map of API iso code to the pair in
 * that language (blank texts dropped, a language with neither text dropped).
 */
export const ScreenerMessageInput = v.strictObject({
  consentMessage: messageText(),
  contactFormMessage: messageText(),
  translations: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT)), translatedPair),
      v.transform((map) => Object.fromEntries(Object.entries(map).filter(([, pair]) => Object.keys(pair).length > 0))),
    ),
    {},
  ),
});
export type ScreenerMessageInput = v.InferOutput<typeof ScreenerMessageInput>;
export type ScreenerMessage = ScreenerMessageInput;

/** The messages of the outcomes a write names; the others are left as they are. */
export const ScreenerMessages = v.strictObject(
  Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, v.optional(ScreenerMessageInput)])) as Record<
    ScreenerOutcome,
    v.OptionalSchema<typeof ScreenerMessageInput, undefined>
  >,
);

const screenerTranslation = v.strictObject({
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(255, message('max', { length: 255 })))),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(5000, message('max', { length: 5000 })))),
});

export const ScreenerInput = v.strictObject({
  title: requiredText(255),
  description: optionalText(5000),
  sponsorId: idNumber(),
  screenerType: v.optional(requiredText(64), SCREENER_DEFAULT_TYPE),
  isActive: v.optional(flag(), true),
  isLocked: v.optional(flag(), false),
  isTest: v.optional(flag(), false),
  isInterestVisible: v.optional(flag(), false),
  /** Per API iso code: the title and description in that language. */
  translations: v.optional(v.record(v.pipe(v.string(), v.check(isApiIsoCode, ISO_CODE_FORMAT)), screenerTranslation), {}),
  styles: v.optional(ScreenerStyles, {}),
  messages: v.optional(ScreenerMessages, {}),
});
/** An update changes only what it names; styles, when given, replace the whole set. */
export const ScreenerPatch = v.partial(ScreenerInput);
export type ScreenerInput = v.InferInput<typeof ScreenerInput>;

/** A screener as the API answers it: the one description of its attributes. */
export const SCREENER = resourceAnswer(
  SCREENER_TYPE,
  v.object({
    title: v.string(),
    description: nullableText(),
    sponsorId: recordId(),
    sponsorName: v.string(),
    userId: v.nullable(recordId()),
    screenerType: v.string(),
    isActive: v.boolean(),
    isLocked: v.boolean(),
    isTest: v.boolean(),
    isInterestVisible: v.boolean(),
    translations: v.pipe(
      v.record(v.string(), v.object({ title: v.optional(v.string()), description: v.optional(v.string()) })),
      v.description('Title and description by language (API iso code).'),
    ),
    styles: ScreenerStyles,
    messages: v.pipe(
      v.object(Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, ScreenerMessageInput])) as Record<ScreenerOutcome, typeof ScreenerMessageInput>),
      v.description("Each outcome's consent and contact-form messages, with their translations."),
    ),
    clonedFromId: v.nullable(recordId()),
    engagements: v.pipe(v.array(v.object({ id: recordId(), name: v.string() })), v.description('The engagements it serves.')),
    languages: v.pipe(v.array(v.object({ id: recordId(), description: v.string(), isoCode: v.string() })), v.description('Its additional languages.')),
    created: instant(),
    modified: instant(),
  }),
);

export type Screener = Answered<typeof SCREENER>;

export const emptyScreenerMessage = (): ScreenerMessage => ({ consentMessage: null, contactFormMessage: null, translations: {} });

export const SCREENER_LANGUAGE_TYPE = 'languages-screeners';
/** An additional language of a screener (GET /api/screeners/languages-screeners): the one description of its attributes. */
export const SCREENER_LANGUAGE = resourceAnswer(
  SCREENER_LANGUAGE_TYPE,
  v.object({ screenerId: recordId(), languageId: recordId(), description: v.string(), isoCode: v.string() }),
);
export type ScreenerLanguage = Answered<typeof SCREENER_LANGUAGE>;

export const SCREENER_ENGAGEMENT_TYPE = 'engagements-screeners';
/** One engagement a screener serves, as setting them answers it (id: screenerId_engagementId). */
export const SCREENER_ENGAGEMENT = resourceAnswer(
  SCREENER_ENGAGEMENT_TYPE,
  v.object({ screenerId: recordId(), engagementId: recordId(), engagementName: v.string() }),
);
export type ScreenerEngagement = Answered<typeof SCREENER_ENGAGEMENT>;

export const SCREENER_LOCKED = 'This screener is locked. Unlock it before changing it.';
