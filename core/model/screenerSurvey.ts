/**
 * A screener's surveys, by the stable identity of a versioned survey (oForm). A link may also
 * name an identity that has no version (yet); cloning copies only surveys that have one.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { flag, idNumber } from './fields';
import { count, idText, instant, recordId, resourceAnswer, type Answered } from './answers';
import { OFORM_TYPE } from './survey';
import { SURVEY_NAMING } from './surveyNaming';

export const SCREENER_SURVEY_TYPE = 'screener-surveys';
export const SCREENER_SURVEY_SORTS = ['displayOrder', 'created', 'oFormIdentity'] as const;
export const SCREENER_SURVEY_DEFAULT_SORT = 'displayOrder';
export const SURVEY_IDENTITY_FORMAT = 'A survey identity is 1 to 64 letters, digits, hyphens or underscores.';

/** A versioned survey's stable identity, as it is written. */
export const SURVEY_IDENTITY = /^[A-Za-z0-9_-]{1,64}$/;

export const surveyIdentity = () => v.pipe(v.string(message('required')), v.trim(), v.regex(SURVEY_IDENTITY, SURVEY_IDENTITY_FORMAT));

const order = () =>
  v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(0, message('integer')), v.maxValue(100_000, message('integer')));

export const ScreenerSurveyInput = v.strictObject({
  screenerId: idNumber(),
  oFormIdentity: surveyIdentity(),
  isActive: v.optional(flag(), true),
  displayOrder: v.optional(order(), 0),
  /** Link a deep copy of the survey (its latest version) as a survey of the screener's own. */
  cloneSurvey: v.optional(flag(), false),
});
export const ScreenerSurveyPatch = v.strictObject({ isActive: v.optional(flag()), displayOrder: v.optional(order()) });
/** PATCH /api/screeners/surveys/{id}: flips the link's isActive. */
export const ScreenerSurveyToggle = v.strictObject({ toggle_active: v.literal(true, 'Send toggle_active: true.') });

/** A survey of a screener (a link by identity), named by the version that stands for it. */
export const SCREENER_SURVEY = resourceAnswer(
  SCREENER_SURVEY_TYPE,
  v.object({
    screenerId: recordId(),
    oFormIdentity: SURVEY_NAMING.oFormIdentity,
    isActive: v.boolean(),
    displayOrder: count(),
    title: SURVEY_NAMING.title,
    version: SURVEY_NAMING.version,
    isApproved: SURVEY_NAMING.isApproved,
    created: instant(),
  }),
);
export type ScreenerSurvey = Answered<typeof SCREENER_SURVEY>;

export const SCREENER_FLOW_TYPE = 'screener-flows';

/** A screener's flow between its surveys (id: the screener): its links, and the options that lead from one to another. */
export const SCREENER_FLOW = resourceAnswer(
  SCREENER_FLOW_TYPE,
  v.object({
    nodes: v.array(
      v.object({ id: v.pipe(v.string(), v.description("The screener's survey link.")), oFormIdentity: v.string(), title: v.string(), isActive: v.boolean() }),
    ),
    edges: v.array(
      v.object({
        id: v.string(),
        source: v.string(),
        target: v.string(),
        label: v.pipe(v.optional(v.string()), v.description('The labels of the options leading from source to target.')),
      }),
    ),
  }),
);
export type ScreenerFlow = Answered<typeof SCREENER_FLOW>;
export type ScreenerFlowNode = ScreenerFlow['nodes'][number];
export type ScreenerFlowEdge = ScreenerFlow['edges'][number];

/**
 * A survey version a clone's refresh made (PATCH /api/screeners/update-surveys/{id}): a new,
 * unapproved version (id: its version's) copied from the source screener's survey.
 */
export const REFRESHED_CLONE_SURVEY = resourceAnswer(
  OFORM_TYPE,
  v.object({
    identity: v.pipe(v.string(), v.description("The clone's survey.")),
    version: v.pipe(count(), v.description('The new version.')),
    title: v.string(),
    sourceIdentity: v.pipe(v.string(), v.description("The source screener's survey it was copied from.")),
    sourceVersionId: v.pipe(idText(), v.description('The version copied: the approved one, else the latest.')),
  }),
  'refreshed-clone-surveys',
);
