import type { ListParams } from '../jsonapi';
import type { AuditEvent } from '../model/auditEvent';
import type { ApiClient } from './client';

export function auditEventsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<AuditEvent>('audit-events', params),
    /** One record's events, newest first (Admins and Super Users). `entity` is its API path, e.g. 'sponsors'. */
    history: (entity: string, entityId: string, params: ListParams = {}) =>
      client.list<AuditEvent>('audit-events', { entity, entityId, sort: '-id', ...params }),
  };
}
