import { SITE_LOCATION_TYPE, type SiteLocation, type SiteLocationInput } from '../model/siteLocation';
import type { ApiClient } from './client';
import { resourceApi } from './resourceApi';

export const siteLocationsApi = (client: ApiClient) => resourceApi<SiteLocation, SiteLocationInput>(client, 'site-locations', SITE_LOCATION_TYPE);
