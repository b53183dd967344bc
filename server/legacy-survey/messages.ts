/**
 * What the legacy survey routes answer, at the attribute that named it, when a write names a
 * part of a survey the user cannot reach or an engagement setting of an option that does not fit.
 */
export const UNKNOWN_SURVEY = 'Choose a survey from the list.';
export const UNKNOWN_PAGE = 'Choose a page from the list.';
export const UNKNOWN_QUESTION = 'Choose a question from the list.';
export const UNKNOWN_OPTION = 'Choose an option from the list.';
export const OPTION_ENGAGEMENT_INVALID = "Choose an engagement of the survey's sponsor.";
export const ENGAGEMENT_OPTION_EXISTS = 'This option already has a setting for this engagement.';
export const ENGAGEMENT_REPEATED = 'This engagement is listed more than once.';
