import type { ListParams } from '../jsonapi';
import { SITE_LOCATION_TYPE, type SiteLocation, type SiteLocationInput } from '../model/siteLocation';
import type { ApiClient } from './client';

export function siteLocationsApi(client: ApiClient) {
  const path = (id: string) => `site-locations/${encodeURIComponent(id)}`;
  return {
    list: (params: ListParams = {}) => client.list<SiteLocation>('site-locations', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('site-locations', params),
    get: (id: string) => client.get<SiteLocation>(path(id)),
    create: (values: SiteLocationInput) => client.create<SiteLocation>('site-locations', SITE_LOCATION_TYPE, { ...values }),
    update: (id: string, values: Partial<SiteLocationInput>) => client.update<SiteLocation>(path(id), SITE_LOCATION_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(path(id)),
  };
}
