import type { ListParams } from '../jsonapi';
import type { Message, SmsLength } from '../model/message';
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

interface TemplateCommon {
  id: string;
  kind: string;
  language: string;
  text: string;
  isDefault: boolean;
  placeholders: string[];
}

/** A mail's template (id `kind.language`) or a text's (id `kind.language.sms`: its text alone). */
export type MessageTemplate = (TemplateCommon & { channel: 'email'; subject: string; html: string }) | (TemplateCommon & { channel: 'sms' });

export type MessageTemplatePreview = { subject: string; html: string; text: string } | ({ text: string } & SmsLength);

/** Message templates: every kind in every language, editing one, its preview, and its default back. */
export const messageTemplatesApi = (client: ApiClient) => ({
  list: () => client.list<MessageTemplate>('message-templates'),
  update: (id: string, values: { subject: string; html: string; text: string } | { text: string }) =>
    client.update<MessageTemplate>(`message-templates/${encodeURIComponent(id)}`, 'message-templates', id, { ...values }),
  reset: (id: string) => client.remove(`message-templates/${encodeURIComponent(id)}`),
  async preview(id: string): Promise<MessageTemplatePreview> {
    const doc = await client.call((http) => http.get(`message-templates/${encodeURIComponent(id)}/preview`).json<{ meta: MessageTemplatePreview }>());
    return doc.meta;
  },
});

export interface MessageSetting {
  id: string;
  engagementId: number;
  kind: string;
  isEnabled: boolean;
  delayMinutes: number;
}

/** An engagement's messages: each kind on or off with its delay in minutes. */
export const messageSettingsApi = (client: ApiClient) => ({
  list: (engagementId: string) => client.list<MessageSetting>('message-settings', { engagementId }),
  update: (id: string, values: { isEnabled: boolean; delayMinutes: number }) =>
    client.update<MessageSetting>(`message-settings/${encodeURIComponent(id)}`, 'message-settings', id, { ...values }),
});
