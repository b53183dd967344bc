import { SITE_COORDINATOR_TYPE, type SiteCoordinatorRow } from '../model/user';
import type { ApiClient } from './client';

/** Site coordinators of a site location: Admin and Super User tie and untie them. */
export const siteCoordinatorsApi = (client: ApiClient) => ({
  list: (siteLocationId: string) => client.list<SiteCoordinatorRow>('site-coordinators', { siteLocationId, limit: 100 }),
  tie: (siteLocationId: number, userId: number) => client.create<SiteCoordinatorRow>('site-coordinators', SITE_COORDINATOR_TYPE, { siteLocationId, userId }),
  untie: (id: string) => client.remove(`site-coordinators/${encodeURIComponent(id)}`),
});
