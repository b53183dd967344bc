import { SPONSOR_TYPE, type Sponsor, type SponsorInput } from '../model/sponsor';
import type { ApiClient } from './client';
import { resourceApi } from './resourceApi';

export function sponsorsApi(client: ApiClient) {
  return {
    ...resourceApi<Sponsor, SponsorInput>(client, 'sponsors', SPONSOR_TYPE),
    /** True when no other sponsor (than `exceptId`) holds this identification. */
    async isIdentificationUnique(identification: string, exceptId?: string): Promise<boolean> {
      const { items } = await client.list<Sponsor>('sponsors', { uniqueIdentification: identification.trim(), limit: 10 });
      return items.every((s) => s.id === exceptId);
    },
  };
}
