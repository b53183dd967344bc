import {
  ENGAGEMENT_SITE_LOCATION_TYPE,
  type EngagementSiteLocation,
  type EngagementSiteLocationInput,
  type EngagementSiteLocationPatch,
  SiteUploadDocument,
  type SiteUploadResult,
} from '../model/engagementSiteLocation';
import { parseAnswer, type ApiClient } from './client';
import { listApi } from './resourceApi';

export function engagementSiteLocationsApi(client: ApiClient) {
  const path = (id: string) => `engagements-site-locations/${encodeURIComponent(id)}`;
  return {
    ...listApi<EngagementSiteLocation>(client, 'engagements-site-locations'),
    get: (id: string) => client.get<EngagementSiteLocation>(path(id)),
    create: (values: EngagementSiteLocationInput) =>
      client.create<EngagementSiteLocation>('engagements-site-locations', ENGAGEMENT_SITE_LOCATION_TYPE, { ...values }),
    update: (id: string, values: EngagementSiteLocationPatch) =>
      client.update<EngagementSiteLocation>(path(id), ENGAGEMENT_SITE_LOCATION_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(path(id)),
    /** A CSV or XLSX of sites (README: upload columns). All rows or none are imported. */
    async upload(engagementId: string, file: Blob, filename: string): Promise<SiteUploadResult> {
      const form = new FormData();
      form.set('file', file, filename);
      const doc = await client.call((h) =>
        h.post(`engagements-site-locations/upload/${encodeURIComponent(engagementId)}`, { body: form, timeout: 120_000 }).json<unknown>(),
      );
      return parseAnswer(SiteUploadDocument, doc, 'the upload').meta;
    },
  };
}
