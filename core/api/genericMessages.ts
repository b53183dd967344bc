import type { ListParams } from '../jsonapi';
import { GENERIC_MESSAGE_TYPE, type GenericMessage, type GenericMessagePatch } from '../model/genericMessage';
import type { ApiClient } from './client';

export function genericMessagesApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<GenericMessage>('generic-messages', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('generic-messages', params),
    get: (id: string) => client.get<GenericMessage>(`generic-messages/${encodeURIComponent(id)}`),
    update: (id: string, values: GenericMessagePatch) =>
      client.update<GenericMessage>(`generic-messages/${encodeURIComponent(id)}`, GENERIC_MESSAGE_TYPE, id, { ...values }),
  };
}
