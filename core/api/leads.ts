import { LEAD_TYPE, type Lead } from '../model/lead';
import type { ListParams } from '../jsonapi';
import type { ApiClient } from './client';

/** Leads (contacts kept at notQualified, noTrialSites, notActive): the list, its CSV, a reveal, erasure. */
export const leadsApi = (client: ApiClient) => ({
  list: (params: ListParams = {}) => client.list<Lead>(LEAD_TYPE, params),
  /** The whole list for these filters, sort and fields as a CSV file (no contact value in it). */
  listCsv: (params: ListParams = {}) => client.listCsv(LEAD_TYPE, params),
  /** The lead's contact values; the server records the reveal in the audit trail. */
  reveal: async (id: string): Promise<Record<string, string | boolean>> =>
    (await client.call((http) => http.post(`${LEAD_TYPE}/${encodeURIComponent(id)}/reveal`).json<{ meta: { values: Record<string, string | boolean> } }>())).meta.values,
  /** Erasure on request (Admin, Super User); audited. */
  erase: (id: string) => client.remove(`${LEAD_TYPE}/${encodeURIComponent(id)}`),
});
