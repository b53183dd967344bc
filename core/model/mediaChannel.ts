/** Media channels (SPEC sections 3, 7, 9): where a screener is embedded, with its snippet. */
import * as v from 'valibot';
import { TRUSTED_TYPES_POLICY, UTM_PARAMETERS, type Utm } from './partnerPage';
import { EMBED_PROBLEM_TYPE, EMBED_PROBLEMS } from './embedProblem';
import { DEFAULT_EVENTS_POLICY, EVENTS_POLICIES, EVENTS_POLICY_INVALID } from './eventsPolicy';
import { isHostName, isIPv4Address } from '../validation/rules';
import { ChannelLocale, DEFAULT_CHANNEL_LOCALE } from './channelLocale';
import { flag, idNumber, requiredText } from './fields';
import { ENGAGEMENT_PAUSE } from './engagement';
import { count, instant, recordId, resourceAnswer, type Answered } from './answers';
import { surveyIdentity } from './screenerSurvey';
import { SURVEY_NAMING } from './surveyNaming';

export const MEDIA_CHANNEL_TYPE = 'media-channels';
export const MEDIA_CHANNEL_TYPES = ['Spectrum Website', 'Partner Website', 'Social Media', 'Other'] as const;
export type MediaChannelKind = (typeof MEDIA_CHANNEL_TYPES)[number];
export const MEDIA_CHANNEL_SORTS = ['title', 'domain', 'channelType', 'isActive', 'screenerName', 'created', 'modified'] as const;
export const MEDIA_CHANNEL_DEFAULT_SORT = 'title';

export const MEDIA_CHANNEL_TYPE_INVALID = `Choose one of: ${MEDIA_CHANNEL_TYPES.join(', ')}.`;
export const HOST_NAME_INVALID = 'Must be a host name such as www.example.com, or an IPv4 address (no https:// and no path).';

/**
 * Days after a run's outcome during which a reload on the channel shows that outcome again and a
 * new run from the same client address is flagged as a possible retake; 0 allows retakes.
 */
export const DEFAULT_RETAKE_WINDOW_DAYS = 30;
export const MAX_RETAKE_WINDOW_DAYS = 3650;
export const RETAKE_WINDOW_INVALID = `Must be a whole number of days from 0 to ${MAX_RETAKE_WINDOW_DAYS}.`;

/**
 * Hidden fields: values a partner's page passes with a run (the snippet's `data-field-<name>`
 * attributes), declared on the channel with a longest length each. Only declared ones are
 * stored with the submission (core/participant/attribution.ts keepHiddenFields).
 */
export const HIDDEN_FIELD_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const HIDDEN_FIELDS_MAX = 20;
export const HIDDEN_FIELD_MAX_LENGTH = 500;
export const HIDDEN_FIELD_NAME_INVALID =
  'Use 1 to 40 lower-case letters, digits, - or _ (starting with a letter or digit): the snippet attribute is data-field-<name>.';
export const HIDDEN_FIELD_LENGTH_INVALID = `Must be a whole number of characters from 1 to ${HIDDEN_FIELD_MAX_LENGTH}.`;
export const HIDDEN_FIELD_DUPLICATE = 'Each hidden field needs its own name.';

export const HiddenField = v.strictObject({
  name: v.pipe(v.string(HIDDEN_FIELD_NAME_INVALID), v.trim(), v.regex(HIDDEN_FIELD_NAME, HIDDEN_FIELD_NAME_INVALID)),
  maxLength: v.pipe(
    v.number(HIDDEN_FIELD_LENGTH_INVALID),
    v.integer(HIDDEN_FIELD_LENGTH_INVALID),
    v.minValue(1, HIDDEN_FIELD_LENGTH_INVALID),
    v.maxValue(HIDDEN_FIELD_MAX_LENGTH, HIDDEN_FIELD_LENGTH_INVALID),
  ),
});
export type HiddenField = v.InferOutput<typeof HiddenField>;

export const HiddenFields = v.pipe(
  v.array(HiddenField),
  v.maxLength(HIDDEN_FIELDS_MAX, `At most ${HIDDEN_FIELDS_MAX} hidden fields.`),
  v.check((fields) => new Set(fields.map((f) => f.name)).size === fields.length, HIDDEN_FIELD_DUPLICATE),
);

/**
 * How the snippet shows the widget on the partner's page. `none`: in the page itself, under a
 * shadow root (the partner's scripts could still read it). `frame`: widget.js builds an iframe
 * of the product's origin (GET /embed/frame) and the same widget runs inside it, so no script of
 * the partner's page can read the questions or what is typed; it costs an iframe (and a
 * `frame-src` in the partner's CSP), sized to its content, with the same host events relayed.
 */
export const CHANNEL_ISOLATIONS = ['none', 'frame'] as const;
export type ChannelIsolation = (typeof CHANNEL_ISOLATIONS)[number];
export const DEFAULT_CHANNEL_ISOLATION: ChannelIsolation = 'none';
export const CHANNEL_ISOLATION_INVALID = `Choose one of: ${CHANNEL_ISOLATIONS.join(', ')}.`;

/** What each isolation means, for staff choosing one. */
export const CHANNEL_ISOLATION_LABELS: Record<ChannelIsolation, string> = {
  none: "None: the widget is part of the partner's page",
  frame: "Frame: the widget runs in an iframe of this product's origin",
};

/** What choosing `frame` buys and costs: shown to staff beside the choice and on the channel's view. */
export const FRAME_ISOLATION_EXPLAINED =
  "In a frame, no script of the partner's page (tag managers, analytics, session recorders) can read the questions or what the participant types: the browser keeps the frame's document from them. The cost is an iframe on the page, sized to its content, which the partner's Content-Security-Policy must allow (frame-src), and only pages of the channel's domain may show it.";

export const MediaChannelInput = v.strictObject({
  title: requiredText(255),
  domain: v.pipe(
    requiredText(253),
    v.toLowerCase(),
    v.check((domain) => isHostName(domain) || isIPv4Address(domain), HOST_NAME_INVALID),
  ),
  screenerId: idNumber(),
  channelType: v.picklist(MEDIA_CHANNEL_TYPES, MEDIA_CHANNEL_TYPE_INVALID),
  isActive: v.optional(flag(), true),
  retakeWindowDays: v.optional(
    v.pipe(
      v.number(RETAKE_WINDOW_INVALID),
      v.integer(RETAKE_WINDOW_INVALID),
      v.minValue(0, RETAKE_WINDOW_INVALID),
      v.maxValue(MAX_RETAKE_WINDOW_DAYS, RETAKE_WINDOW_INVALID),
    ),
    DEFAULT_RETAKE_WINDOW_DAYS,
  ),
  hiddenFields: v.optional(HiddenFields, []),
  eventsPolicy: v.optional(v.picklist(EVENTS_POLICIES, EVENTS_POLICY_INVALID), DEFAULT_EVENTS_POLICY),
  /** Its participants' language and region (en-US, en-CA, es-ES): distances in miles or kilometres by the region. */
  locale: v.optional(ChannelLocale, DEFAULT_CHANNEL_LOCALE),
  isolation: v.optional(v.picklist(CHANNEL_ISOLATIONS, CHANNEL_ISOLATION_INVALID), DEFAULT_CHANNEL_ISOLATION),
});
export const MediaChannelPatch = v.partial(MediaChannelInput);
export type MediaChannelInput = v.InferInput<typeof MediaChannelInput>;

/** A media channel as the API answers it: the one description of its attributes. */
export const MEDIA_CHANNEL = resourceAnswer(
  MEDIA_CHANNEL_TYPE,
  v.object({
    title: v.string(),
    domain: v.string(),
    screenerId: recordId(),
    screenerName: v.string(),
    sponsorId: recordId(),
    sponsorName: v.string(),
    channelType: v.picklist(MEDIA_CHANNEL_TYPES),
    isActive: v.boolean(),
    retakeWindowDays: v.pipe(count(), v.description("Days a finished run's outcome is shown again on the channel (0: retakes allowed).")),
    hiddenFields: v.pipe(
      v.array(v.object({ name: v.string(), maxLength: count() })),
      v.description("The values a partner's page may pass with a run (`data-field-<name>`), each with its longest length."),
    ),
    eventsPolicy: v.pipe(v.picklist(EVENTS_POLICIES), v.description("What the widget announces to the partner's page.")),
    locale: v.pipe(
      v.string(),
      v.description("Its participants' language and region (en-US, en-CA, es-ES): the region decides miles or kilometres and the ZIP questions' country."),
    ),
    isolation: v.pipe(
      v.picklist(CHANNEL_ISOLATIONS),
      v.description("How the snippet shows the widget: in the partner's page (none), or in an iframe of the product's origin (frame)."),
    ),
    views: count(),
    share: v.pipe(count(), v.description("Opens of the channel's own participant page.")),
    submissionsStarted: count(),
    submissionsCompleted: count(),
    submissionsQualified: count(),
    possibleRetakes: v.pipe(
      count(),
      v.description('Of the submissions started, those flagged as a possible retake (same client address and channel within the window).'),
    ),
    created: instant(),
    modified: instant(),
    /** On a single channel read: its screener's engagements paused (target reached, dates passed); all paused means notActive. */
    recruitmentPause: v.optional(
      v.object({
        isPaused: v.boolean(),
        engagements: v.array(v.object({ engagementId: recordId(), engagementName: v.string(), ...ENGAGEMENT_PAUSE.entries })),
      }),
    ),
  }),
);

export type MediaChannel = Answered<typeof MEDIA_CHANNEL>;

/**
 * The height the snippet's element reserves from the page's first paint, before widget.js has
 * run: about a first question's card (a title, two short choice questions and Next). The widget
 * keeps the element at least this tall and its loading card fills it, so the text below does not
 * move when the widget appears (layout shift). A partner may set another height.
 */
export const RESERVED_HEIGHT = '26em';
export const reservedStyle = `display:block;min-height:${RESERVED_HEIGHT}`;

/** The snippet's attribute asking widget.js for the framed widget (`data-isolation="frame"`). */
export const ISOLATION_ATTRIBUTE = 'data-isolation';

/**
 * The snippet a partner pastes into their page; the widget reads exactly these attributes. The
 * channel's hidden fields come as empty `data-field-<name>` attributes for the partner to fill;
 * a framed channel's script carries `data-isolation="frame"`.
 */
export function embedSnippet(
  origin: string,
  mediaChannelId: string,
  screenerId: string | number,
  hiddenFields: readonly Pick<HiddenField, 'name'>[] = [],
  isolation: ChannelIsolation = DEFAULT_CHANNEL_ISOLATION,
): string {
  const base = origin.replace(/\/+$/, '');
  const fields = hiddenFields.map((field) => ` data-field-${field.name}=""`).join('');
  const framed = isolation === 'frame' ? ` ${ISOLATION_ATTRIBUTE}="frame"` : '';
  return `<div data-trial-widget style="${reservedStyle}"></div><script async src="${base}/widget.js" data-media-channel-id="${mediaChannelId}" data-screener-id="${screenerId}"${fields}${framed}></script>`;
}

/**
 * What a partner page's Content-Security-Policy must allow for the widget: its script and its
 * calls, from the product's origin, and nothing else (its styles are constructed stylesheets,
 * which CSP does not govern; it loads no images or fonts). In a frame, the page makes no call
 * itself: it needs the script and the frame (`frame-src`) instead.
 */
export function partnerCspSources(
  origin: string,
  isolation: ChannelIsolation = DEFAULT_CHANNEL_ISOLATION,
): Partial<Record<'script-src' | 'connect-src' | 'frame-src', string>> {
  const base = origin.replace(/\/+$/, '');
  return isolation === 'frame' ? { 'script-src': base, 'frame-src': base } : { 'script-src': base, 'connect-src': base };
}

/** The same as directives to add to a policy: `script-src <origin>; connect-src <origin>` (or `frame-src` in a frame). */
export const partnerCspText = (origin: string, isolation: ChannelIsolation = DEFAULT_CHANNEL_ISOLATION): string =>
  Object.entries(partnerCspSources(origin, isolation))
    .map(([directive, source]) => `${directive} ${source}`)
    .join('; ');

/**
 * What a partner page whose CSP has a `trusted-types` directive adds to it: the widget's one
 * policy (the screener's sanitized messages). `require-trusted-types-for 'script'` alone needs nothing.
 */
export const partnerTrustedTypesText = `trusted-types ${TRUSTED_TYPES_POLICY}`;

/** The channel's own participant page, for channels with no website to embed into; opens count in `share`. */
export const participantPageUrl = (origin: string, mediaChannelId: string | number): string => `${origin.replace(/\/+$/, '')}/take/${mediaChannelId}`;

/** The channel's participant page with campaign parameters (the link builder): empty ones left out, in UTM_PARAMETERS' order. */
export function campaignLink(origin: string, mediaChannelId: string | number, utm: Utm): string {
  const query = new URLSearchParams();
  for (const name of UTM_PARAMETERS) {
    const value = utm[name]?.trim();
    if (value) query.set(name, value);
  }
  const q = query.toString();
  return `${participantPageUrl(origin, mediaChannelId)}${q ? `?${q}` : ''}`;
}

/** An embed problem seen for a channel on a partner page, counted per page origin and cause: the one description of its attributes. */
export const EMBED_PROBLEM = resourceAnswer(
  EMBED_PROBLEM_TYPE,
  v.object({
    mediaChannelId: recordId(),
    origin: v.pipe(v.string(), v.description("The page's origin (scheme, host and port: never a path or query).")),
    cause: v.picklist(EMBED_PROBLEMS),
    firstSeen: instant(),
    lastSeen: instant(),
    count: count(),
  }),
);
export type EmbedProblemRecord = Answered<typeof EMBED_PROBLEM>;

/** A survey identity a media channel serves (SPEC section 3: link id and isActive). */
export const MEDIA_CHANNEL_SURVEY_TYPE = 'media-channel-surveys';
export const MediaChannelSurveyInput = v.strictObject({
  mediaChannelId: idNumber(),
  oFormIdentity: surveyIdentity(),
  isActive: v.optional(flag(), true),
});
export const MediaChannelSurveyPatch = v.strictObject({ isActive: flag() });
export const MEDIA_CHANNEL_SURVEY = resourceAnswer(
  MEDIA_CHANNEL_SURVEY_TYPE,
  v.object({
    mediaChannelId: recordId(),
    oFormIdentity: SURVEY_NAMING.oFormIdentity,
    isActive: v.boolean(),
    title: SURVEY_NAMING.title,
    version: SURVEY_NAMING.version,
    isApproved: SURVEY_NAMING.isApproved,
  }),
);
export type MediaChannelSurvey = Answered<typeof MEDIA_CHANNEL_SURVEY>;

/**
 * A survey a channel serves to participants (GET /api/media-channels/{id}/served-surveys), in the
 * order the participant start tries them; `starts` marks the one /take/{id} and the widget run now.
 */
export const SERVED_SURVEY_TYPE = 'served-surveys';
export const SERVED_SURVEY = resourceAnswer(
  SERVED_SURVEY_TYPE,
  v.object({ ...SURVEY_NAMING, starts: v.pipe(v.boolean(), v.description('Whether a participant starts this one now.')) }),
);
export type ServedSurvey = Answered<typeof SERVED_SURVEY>;
