import {
  MESSAGE_SETTING_TYPE,
  MESSAGE_TEMPLATE_TYPE,
  MessageRevealedDocument,
  MessageTemplatePreviewDocument,
  type Message,
  type MessageSetting,
  type MessageTemplate,
  type MessageTemplatePreview,
} from '../model/message';
import { parseAnswer, type ApiClient } from './client';
import { listApi } from './resourceApi';

/** Messages (the outbox): the list, resending one not sent, and revealing its address (audited). */
export const messagesApi = (client: ApiClient) => ({
  ...listApi<Message>(client, 'messages'),
  resend: (id: string) =>
    client.call((http) =>
      http.post(`messages/${encodeURIComponent(id)}/resend`).json<{ data: { attributes: { status: string; lastError: string | null } } }>(),
    ),
  async reveal(id: string): Promise<string> {
    const doc = await client.call((http) => http.post(`messages/${encodeURIComponent(id)}/reveal`).json<unknown>());
    return parseAnswer(MessageRevealedDocument, doc, 'the reveal').meta.to;
  },
});

/** Message templates: every kind in every language, editing one, its preview, and its default back. */
export const messageTemplatesApi = (client: ApiClient) => ({
  list: () => client.list<MessageTemplate>(MESSAGE_TEMPLATE_TYPE),
  update: (id: string, values: { subject: string; html: string; text: string } | { text: string }) =>
    client.update<MessageTemplate>(`message-templates/${encodeURIComponent(id)}`, MESSAGE_TEMPLATE_TYPE, id, { ...values }),
  reset: (id: string) => client.remove(`message-templates/${encodeURIComponent(id)}`),
  async preview(id: string): Promise<MessageTemplatePreview> {
    const doc = await client.call((http) => http.get(`message-templates/${encodeURIComponent(id)}/preview`).json<unknown>());
    return parseAnswer(MessageTemplatePreviewDocument, doc, 'the preview').meta;
  },
});

/** An engagement's messages: each kind on or off with its delay in minutes. */
export const messageSettingsApi = (client: ApiClient) => ({
  list: (engagementId: string) => client.list<MessageSetting>(MESSAGE_SETTING_TYPE, { engagementId }),
  update: (id: string, values: { isEnabled: boolean; delayMinutes: number }) =>
    client.update<MessageSetting>(`message-settings/${encodeURIComponent(id)}`, MESSAGE_SETTING_TYPE, id, { ...values }),
});
