import { decode, type DataDocument, type ListParams, type Resource } from '../jsonapi';
import type { RmsAudit } from '../model/rmsAudit';
import type { ApiClient } from './client';

/** Record-system audits (Super User): the list, and delivering contacts again. */
export function rmsAuditsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<RmsAudit>('rms-audits', { include: 'rmsProviders', ...params }),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('rms-audits', params),
    /**
     * Delivers the contact again now; answers that attempt's audit. `again` sends an already
     * delivered referral a second time (the server refuses it otherwise).
     */
    async resend(contactId: string | number, options: { again?: boolean } = {}): Promise<RmsAudit> {
      const doc = await client.call((http) =>
        http.post(`resend-rms-audit/${encodeURIComponent(String(contactId))}`, options.again ? { searchParams: { again: 'true' } } : {}).json<DataDocument<Resource>>(),
      );
      // Declared in core/model beside the route that answers it.
      return decode(doc) as unknown as RmsAudit;
    },
    /** Re-queues every undelivered contact these list filters show; answers how many. */
    async resendUndelivered(filters: Record<string, string>): Promise<number> {
      const doc = await client.call((http) => http.post('resend-rms-audit', { searchParams: filters }).json<{ meta: { queued: number } }>());
      return doc.meta.queued;
    },
  };
}
