/** SPEC section 8, verbatim (the product's spelling of 'enagagements' included). */
export const ADD_PAGE_FAILED = 'Could not add Page';
export const ADD_QUESTION_FAILED = 'Could not add Question';
export const ADD_OPTION_FAILED = 'Could not add Option';
export const UPDATE_OPTION_ENGAGEMENTS_FAILED = 'Could not update option enagagements';
export { SAVE_FAILED } from '../../components/form/useEntityForm';

export const SURVEY_LABELS = {
  title: 'Title',
  globalId: 'Global Id',
  isActive: 'Active',
  engagementName: 'Engagement',
  sponsorName: 'Sponsor',
  pageCounter: 'Page counter',
  created: 'Created',
  modified: 'Modified',
  pages: 'Pages',
} as const;

/** Question type names, from core (one list for the server's lookup and every screen). */
export { FIELD_TYPE_NAMES as TYPE_LABELS } from '@core/model/survey';

export { failureText } from '../../hooks/useAction';
