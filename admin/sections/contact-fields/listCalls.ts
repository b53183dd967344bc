/** The Contact Fields list's query, in one place: the screen reads it, and the route asks for its page ahead (routing/ahead.ts). */
import { contactFieldsApi } from '@core/api/contactFields';
import { CONTACT_FIELD_DEFAULT_SORT, CONTACT_FIELD_SORTS } from '@core/model/contactField';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { quietly, type Ahead } from '../../routing/ahead';

export const CONTACT_FIELD_LIST: ListQueryOptions = { defaultSort: CONTACT_FIELD_DEFAULT_SORT, sortable: CONTACT_FIELD_SORTS };

export const contactFieldsAhead: Ahead = ({ client, search }) => quietly(contactFieldsApi(client).list(firstPageParams(search, CONTACT_FIELD_LIST)));
