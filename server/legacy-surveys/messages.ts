/**
 * What the legacy survey routes answer, at the attribute that named it, when a write names a
 * part of a survey the user cannot reach or an engagement setting of an option that does not fit.
 */
import { chooseFromList } from '@core/validation/chooseFromList';
export const UNKNOWN_SURVEY = chooseFromList('a survey');
export const UNKNOWN_PAGE = chooseFromList('a page');
export const UNKNOWN_QUESTION = chooseFromList('a question');
export const UNKNOWN_OPTION = chooseFromList('an option');
export const OPTION_ENGAGEMENT_INVALID = "Choose an engagement of the survey's sponsor.";
export const ENGAGEMENT_OPTION_EXISTS = 'This option already has a setting for this engagement.';
export const ENGAGEMENT_REPEATED = 'This engagement is listed more than once.';
