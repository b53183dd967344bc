/**
 * How staff see a survey named by its identity (a screener's or a channel's link, a survey to
 * pick): by the title, version and approval of the version that stands for it — the approved
 * one, else the latest. All three are null when the identity has no version (yet).
 */
export interface SurveyNaming {
  oFormIdentity: string;
  title: string | null;
  version: number | null;
  isApproved: boolean | null;
}

/** "Health check (version 2, approved)"; the bare identity when it has no version. */
export function surveyLabel(survey: SurveyNaming): string {
  if (survey.title === null || survey.version === null) return `${survey.oFormIdentity} (no version yet)`;
  return `${survey.title} (version ${survey.version}, ${survey.isApproved ? 'approved' : 'not approved'})`;
}
