/**
 * The participant API's names, shared by the server and every client: the header that carries a
 * submission's access token and the JSON:API types of the participant's resources. Plain
 * constants, no validation code, so the widget can import them without carrying a schema library.
 */

/** Answered once by the submission's creation; sent back on every later call about it. */
export const SUBMISSION_TOKEN_HEADER = 'Survey-Submission-Token';

/**
 * Where a call with a body carries the token instead (`meta.submissionToken`): sent as
 * text/plain with no header of its own, a POST is a CORS simple request that needs no preflight,
 * and a body, unlike an address, is in no log.
 */
export const SUBMISSION_TOKEN_META = 'submissionToken';

/** The body's type on the wire: JSON:API's own would cost a preflight on a partner's page. */
export const SIMPLE_BODY_TYPE = 'text/plain;charset=UTF-8';

export const VIEW_TYPE = 'participant-views';
export const SUBMISSION_TYPE = 'o-form-submissions';
export const ENTRY_TYPE = 'o-form-container-entries';
export const FIELD_ENTRY_TYPE = 'o-form-field-entries';
export const PAGE_METRIC_TYPE = 'o-form-page-metrics';
export const PAGE_ANSWERS_TYPE = 'o-form-submission-pages';
export const SANITIZATION_TYPE = 'o-form-submission-sanitizations';
export const CONTACT_TYPE = 'o-form-submission-contacts';
export const LEAD_CONTACT_TYPE = 'o-form-submission-leads';
export const TRIAL_SITE_TYPE = 'trial-sites';
