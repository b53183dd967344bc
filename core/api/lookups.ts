import { LOOKUP_TYPES, type Indication, type Lookup, type LookupType } from '../model/lookup';
import type { ApiClient } from './client';

export function lookupsApi(client: ApiClient) {
  return {
    /** A whole lookup list, sorted by name (SPEC: limit 1000, sort name). */
    all: (type: LookupType) => client.list<Lookup>(type, { limit: 1000, sort: 'name' }).then((r) => r.items),
    indications: () => client.list<Indication>(LOOKUP_TYPES.indications, { limit: 1000, sort: 'name' }).then((r) => r.items),
    addIndication: (name: string) => client.create<Indication>(LOOKUP_TYPES.indications, LOOKUP_TYPES.indications, { name, is_active: true }),
    addTag: (name: string) => client.create<Lookup>(LOOKUP_TYPES.tags, LOOKUP_TYPES.tags, { name }),
  };
}
