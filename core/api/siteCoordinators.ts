import { SITE_COORDINATOR_TYPE } from '../model/user';
import type { ApiClient } from './client';

/** A Site Coordinator tied to a site location (id: `{siteLocationId}-{userId}`). */
export interface SiteCoordinatorRow {
  id: string;
  userId: number;
  username: string;
  email: string | null;
  isActive: boolean;
  siteLocationId: number;
}

/** Site coordinators of a site location: Admin and Super User tie and untie them. */
export const siteCoordinatorsApi = (client: ApiClient) => ({
  list: (siteLocationId: string) => client.list<SiteCoordinatorRow>('site-coordinators', { siteLocationId, limit: 100 }),
  tie: (siteLocationId: number, userId: number) => client.create<SiteCoordinatorRow>('site-coordinators', SITE_COORDINATOR_TYPE, { siteLocationId, userId }),
  untie: (id: string) => client.remove(`site-coordinators/${encodeURIComponent(id)}`),
});
