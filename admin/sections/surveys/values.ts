/** Texts, labels and small rules of the versioned-survey screens. */
import type { SurveyVersion } from '@core/model/surveyDoc';

export { ADD_OPTION_FAILED, ADD_PAGE_FAILED, ADD_QUESTION_FAILED, SAVE_FAILED, failureText } from '../legacy-surveys/values';
export { FIELD_TYPE_NAMES as TYPE_LABELS } from '@core/model/survey';
export { MESSAGE_TYPE_LABELS } from '@core/model/surveyMessage';
export { GET_LANGUAGES_FAILED } from '../../hooks/useLanguages';

/** SPEC section 8, verbatim. */
export const SAVE_MESSAGES_FAILED = 'Could Not Save Survey Messages';
export const TOGGLE_LANGUAGE_FAILED = 'Could not toggle language';
export const EXPORT_FAILED = 'Could not export survey';
export const DELETE_PAGE_FAILED = 'Could not delete Page';
export const APPROVE_FAILED = 'Could not approve this version';
export const COPY_FAILED = 'Could not make a new version';

export const VERSIONED_SURVEY_LABELS = {
  title: 'Title',
  version: 'Version',
  engagementName: 'Engagement',
  sponsorName: 'Sponsor',
  isActive: 'Active',
  isApproved: 'Approved',
  containerCount: 'Pages',
  identity: 'Identity',
  created: 'Created',
  modified: 'Modified',
} as const;

/** A version once approved never changes again, even after a later version replaces it. */
export const isFrozen = (form: Pick<SurveyVersion, 'approvedAt'>) => form.approvedAt !== null;

export function versionStatus(form: Pick<SurveyVersion, 'approvedAt' | 'isApproved'>): string {
  if (form.isApproved) return 'Approved';
  return form.approvedAt ? 'Previously approved' : 'Draft';
}
