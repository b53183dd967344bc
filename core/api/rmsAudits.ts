import { decode, type DataDocument, type ListParams, type Resource } from '../jsonapi';
import type { RmsAudit } from '../model/rmsAudit';
import type { ApiClient } from './client';

/** Record-system audits (Super User): the list, and pushing a contact again. */
export function rmsAuditsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<RmsAudit>('rms-audits', { include: 'rmsProviders', ...params }),
    /** Pushes the contact again now; answers the audit of the push's last attempt. */
    async resend(contactId: string | number): Promise<RmsAudit> {
      const doc = await client.call((http) => http.post(`resend-rms-audit/${encodeURIComponent(String(contactId))}`).json<DataDocument<Resource>>());
      // Declared in core/model beside the route that answers it.
      return decode(doc) as unknown as RmsAudit;
    },
  };
}
