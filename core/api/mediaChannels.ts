import type { ListParams } from '../jsonapi';
import {
  MEDIA_CHANNEL_SURVEY_TYPE,
  MEDIA_CHANNEL_TYPE,
  type EmbedProblemRecord,
  type MediaChannel,
  type MediaChannelInput,
  type MediaChannelSurvey,
  type ServedSurvey,
} from '../model/mediaChannel';
import type { ApiClient } from './client';

export function mediaChannelsApi(client: ApiClient) {
  const path = (id: string) => `media-channels/${encodeURIComponent(id)}`;
  return {
    list: (params: ListParams = {}) => client.list<MediaChannel>('media-channels', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('media-channels', params),
    get: (id: string) => client.get<MediaChannel>(path(id)),
    create: (values: MediaChannelInput) => client.create<MediaChannel>('media-channels', MEDIA_CHANNEL_TYPE, { ...values }),
    update: (id: string, values: Partial<MediaChannelInput>) => client.update<MediaChannel>(path(id), MEDIA_CHANNEL_TYPE, id, { ...values }),
    /** What the channel serves participants now, by the participant start's rule. */
    served: (mediaChannelId: string) => client.list<ServedSurvey>(`${path(mediaChannelId)}/served-surveys`).then((r) => r.items),
    /** The last distinct embed problems seen on partner pages, most recent first. */
    embedProblems: (mediaChannelId: string) => client.list<EmbedProblemRecord>(`${path(mediaChannelId)}/embed-problems`).then((r) => r.items),
    surveys: (mediaChannelId: string) => client.list<MediaChannelSurvey>('media-channel-surveys', { mediaChannelId, limit: 100 }),
    addSurvey: (mediaChannelId: string, oFormIdentity: string) =>
      client.create<MediaChannelSurvey>('media-channel-surveys', MEDIA_CHANNEL_SURVEY_TYPE, { mediaChannelId: Number(mediaChannelId), oFormIdentity }),
    setSurveyActive: (id: string, isActive: boolean) =>
      client.update<MediaChannelSurvey>(`media-channel-surveys/${encodeURIComponent(id)}`, MEDIA_CHANNEL_SURVEY_TYPE, id, { isActive }),
  };
}
