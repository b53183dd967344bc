import { GENERIC_MESSAGE_TYPE, type GenericMessage, type GenericMessagePatch } from '../model/genericMessage';
import type { ApiClient } from './client';
import { listApi } from './resourceApi';

export function genericMessagesApi(client: ApiClient) {
  return {
    ...listApi<GenericMessage>(client, 'generic-messages'),
    get: (id: string) => client.get<GenericMessage>(`generic-messages/${encodeURIComponent(id)}`),
    update: (id: string, values: GenericMessagePatch) =>
      client.update<GenericMessage>(`generic-messages/${encodeURIComponent(id)}`, GENERIC_MESSAGE_TYPE, id, { ...values }),
  };
}
