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
import { recordsApi } from './resourceApi';

export function mediaChannelsApi(client: ApiClient) {
  const path = (id: string) => `media-channels/${encodeURIComponent(id)}`;
  return {
    ...recordsApi<MediaChannel, MediaChannelInput>(client, 'media-channels', MEDIA_CHANNEL_TYPE),
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
