import type { ListParams } from '../jsonapi';
import { SPONSOR_TYPE, type Sponsor, type SponsorInput } from '../model/sponsor';
import type { ApiClient } from './client';

export function sponsorsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<Sponsor>('sponsors', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('sponsors', params),
    get: (id: string) => client.get<Sponsor>(`sponsors/${encodeURIComponent(id)}`),
    create: (values: SponsorInput) => client.create<Sponsor>('sponsors', SPONSOR_TYPE, { ...values }),
    update: (id: string, values: Partial<SponsorInput>) => client.update<Sponsor>(`sponsors/${encodeURIComponent(id)}`, SPONSOR_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(`sponsors/${encodeURIComponent(id)}`),
    /** True when no other sponsor (than `exceptId`) holds this identification. */
    async isIdentificationUnique(identification: string, exceptId?: string): Promise<boolean> {
      const { items } = await client.list<Sponsor>('sponsors', { uniqueIdentification: identification.trim(), limit: 10 });
      return items.every((s) => s.id === exceptId);
    },
  };
}
