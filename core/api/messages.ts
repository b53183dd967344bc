import type { ListParams } from '../jsonapi';
import type { Message } from '../model/message';
import type { ApiClient } from './client';

/** Messages (the outbox): the list, resending one not sent, and revealing its address (audited). */
export const messagesApi = (client: ApiClient) => ({
  list: (params: ListParams = {}) => client.list<Message>('messages', params),
  listCsv: (params: ListParams = {}) => client.listCsv('messages', params),
  resend: (id: string) => client.call((http) => http.post(`messages/${encodeURIComponent(id)}/resend`).json<{ data: { attributes: { status: string; lastError: string | null } } }>()),
  async reveal(id: string): Promise<string> {
    const doc = await client.call((http) => http.post(`messages/${encodeURIComponent(id)}/reveal`).json<{ meta: { to: string } }>());
    return doc.meta.to;
  },
});
