import type { Country } from '../model/country';
import type { ApiClient } from './client';

export const countriesApi = (client: ApiClient) => ({
  all: () => client.list<Country>('countries', { limit: 1000, sort: 'name', fields: 'id,name,isoCode' }),
});
