/** The outbox's query and its engagement options, and the templates' list, in one place: the screens read them, and their routes ask ahead (routing/ahead.ts). */
import { engagementsApi } from '@core/api/engagements';
import { messagesApi, messageTemplatesApi } from '@core/api/messages';
import { MESSAGE_DEFAULT_SORT, MESSAGE_SORTS } from '@core/model/message';
import { firstPageParams, type ListQueryOptions } from '../../components/list/useResourceList';
import { ENGAGEMENT_OPTION_PARAMS } from '../../hooks/optionCalls';
import { quietly, type Ahead } from '../../routing/ahead';

export const MESSAGE_FILTERS = ['status', 'kind', 'channel', 'engagementId'] as const;

export const MESSAGE_LIST: ListQueryOptions = { defaultSort: MESSAGE_DEFAULT_SORT, sortable: MESSAGE_SORTS, filterNames: MESSAGE_FILTERS };

export const messagesAhead: Ahead = ({ client, search }) =>
  quietly(messagesApi(client).list(firstPageParams(search, MESSAGE_LIST)), engagementsApi(client).list(ENGAGEMENT_OPTION_PARAMS));

export const messageTemplatesAhead: Ahead = ({ client }) => quietly(messageTemplatesApi(client).list());
