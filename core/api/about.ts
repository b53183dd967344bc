import type { About, DependencyLicence } from '../model/about';
import type { ApiClient } from './client';

export function aboutApi(client: ApiClient) {
  return {
    get: () => client.get<About>('about'),
    licences: () => client.list<DependencyLicence>('about/licences').then((r) => r.items),
  };
}
