import { decode, type DataDocument, type ListParams, type Resource } from '../jsonapi';
import { RmsAuditAttempt, RmsResendQueuedDocument, type RmsAudit } from '../model/rmsAudit';
import { parseAnswer, type ApiClient } from './client';

/** Record-system audits (Super User): the list, and delivering contacts again. */
export function rmsAuditsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<RmsAudit>('rms-audits', { include: 'rmsProviders', ...params }),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('rms-audits', params),
    /**
     * Delivers the contact again now; answers that attempt's record (not the list's view of it:
     * the delivery's state is the list's to show). `again` sends an already delivered referral a
     * second time (the server refuses it otherwise).
     */
    async resend(contactId: string | number, options: { again?: boolean } = {}): Promise<RmsAuditAttempt> {
      const doc = await client.call((http) =>
        http
          .post(`resend-rms-audit/${encodeURIComponent(String(contactId))}`, options.again ? { searchParams: { again: 'true' } } : {})
          .json<DataDocument<Resource>>(),
      );
      return parseAnswer(RmsAuditAttempt, decode(doc), 'the resend');
    },
    /** Re-queues every undelivered contact these list filters show; answers how many. */
    async resendUndelivered(filters: Record<string, string>): Promise<number> {
      const doc = await client.call((http) => http.post('resend-rms-audit', { searchParams: filters }).json<unknown>());
      return parseAnswer(RmsResendQueuedDocument, doc, 'the resend').meta.queued;
    },
  };
}
