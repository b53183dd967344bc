import type { Relationship } from '../jsonapi';
import {
  ENGAGEMENT_INCLUDES,
  ENGAGEMENT_LOOKUP_RELATIONSHIPS,
  ENGAGEMENT_TYPE,
  type Engagement,
  type EngagementInput,
  type EngagementLookupRelationship,
} from '../model/engagement';
import type { ApiClient } from './client';
import { listApi } from './resourceApi';

/** The four lookup lists as ids, for the PATCH that follows a POST (SPEC section 7). */
export type EngagementLookupIds = Partial<Record<EngagementLookupRelationship, string[]>>;

export function lookupRelationships(lists: EngagementLookupIds): Record<string, Relationship> {
  const out: Record<string, Relationship> = {};
  for (const [name, ids] of Object.entries(lists) as [EngagementLookupRelationship, string[]][]) {
    out[name] = { data: ids.map((id) => ({ type: ENGAGEMENT_LOOKUP_RELATIONSHIPS[name], id })) };
  }
  return out;
}

const ONE_INCLUDE = ENGAGEMENT_INCLUDES.join(',');

export function engagementsApi(client: ApiClient) {
  const path = (id: string) => `engagements/${encodeURIComponent(id)}`;
  return {
    ...listApi<Engagement>(client, 'engagements'),
    /** One engagement with its sponsor, provider and the names of its lookup lists. */
    get: (id: string) => client.get<Engagement>(path(id), { include: ONE_INCLUDE }),
    /** POST, then the PATCH that sets the lookup lists. */
    async create(values: EngagementInput, lists: EngagementLookupIds = {}) {
      const created = await client.create<Engagement>('engagements', ENGAGEMENT_TYPE, { ...values });
      if (Object.keys(lists).length === 0) return created;
      return client.update<Engagement>(path(created.id), ENGAGEMENT_TYPE, created.id, {}, lookupRelationships(lists));
    },
    update: (id: string, values: Partial<EngagementInput>, lists: EngagementLookupIds = {}) =>
      client.update<Engagement>(path(id), ENGAGEMENT_TYPE, id, { ...values }, Object.keys(lists).length ? lookupRelationships(lists) : undefined),
    remove: (id: string) => client.remove(path(id)),
    /** True when no other engagement (than `exceptId`) holds this identification. */
    async isIdentificationUnique(identification: string, exceptId?: string): Promise<boolean> {
      const { items } = await client.list<Engagement>('engagements', { uniqueIdentification: identification.trim(), limit: 10 });
      return items.every((e) => e.id === exceptId);
    },
  };
}
