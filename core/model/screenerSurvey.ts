/**
 * A screener's surveys, by the stable identity of a versioned survey (oForm). A link may also
 * name an identity that has no version (yet); cloning copies only surveys that have one.
 */
import * as v from 'valibot';
import { message } from '../validation/messages';
import { flag } from './fields';
import type { SurveyNaming } from './surveyNaming';

export const SCREENER_SURVEY_TYPE = 'screener-surveys';
export const SCREENER_SURVEY_SORTS = ['displayOrder', 'created', 'oFormIdentity'] as const;
export const SCREENER_SURVEY_DEFAULT_SORT = 'displayOrder';
export const SURVEY_IDENTITY_FORMAT = 'A survey identity is 1 to 64 letters, digits, hyphens or underscores.';

export const surveyIdentity = () =>
  v.pipe(v.string(message('required')), v.trim(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, SURVEY_IDENTITY_FORMAT));

const order = () => v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(0, message('integer')), v.maxValue(100_000, message('integer')));

export const ScreenerSurveyInput = v.strictObject({
  screenerId: v.pipe(v.number(message('integer')), v.integer(message('integer')), v.minValue(1, message('integer'))),
  oFormIdentity: surveyIdentity(),
  isActive: v.optional(flag(), true),
  displayOrder: v.optional(order(), 0),
  /** Link a deep copy of the survey (its latest version) as a survey of the screener's own. */
  cloneSurvey: v.optional(flag(), false),
});
export const ScreenerSurveyPatch = v.strictObject({ isActive: v.optional(flag()), displayOrder: v.optional(order()) });
/** PATCH /api/screeners/surveys/{id}: flips the link's isActive. */
export const ScreenerSurveyToggle = v.strictObject({ toggle_active: v.literal(true, 'Send toggle_active: true.') });

export interface ScreenerSurvey extends SurveyNaming {
  id: string;
  screenerId: number;
  isActive: boolean;
  displayOrder: number;
  created: string;
}

export interface ScreenerFlowNode {
  id: string;
  oFormIdentity: string;
  title: string;
  isActive: boolean;
}
export interface ScreenerFlowEdge {
  id: string;
  source: string;
  target: string;
  /** The labels of the options leading from source to target. */
  label?: string;
}
export interface ScreenerFlow {
  id: string;
  nodes: ScreenerFlowNode[];
  edges: ScreenerFlowEdge[];
}
