import * as v from 'valibot';
import { nullableText } from './answers';

/**
 * How staff see a survey named by its identity (a screener's or a channel's link, a survey to
 * pick): by the title, version and approval of the version that stands for it — the approved
 * one, else the latest. All three are null when the identity has no version (yet).
 */
export const SURVEY_NAMING = {
  oFormIdentity: v.pipe(v.string(), v.description("The survey's stable identity, the same across its versions.")),
  title: v.pipe(nullableText(), v.description('The title of the version that stands for it (the approved one, else the latest).')),
  version: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  isApproved: v.nullable(v.boolean()),
} satisfies v.ObjectEntries;
export type SurveyNaming = v.InferOutput<v.ObjectSchema<typeof SURVEY_NAMING, undefined>>;

/** "Health check (version 2, approved)"; the bare identity when it has no version. */
export function surveyLabel(survey: SurveyNaming): string {
  if (survey.title === null || survey.version === null) return `${survey.oFormIdentity} (no version yet)`;
  return `${survey.title} (version ${survey.version}, ${survey.isApproved ? 'approved' : 'not approved'})`;
}
