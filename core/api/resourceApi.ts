import type { Attributes, ListParams } from '../jsonapi';
import type { ApiClient } from './client';

const at = (collection: string, id: string) => `${collection}/${encodeURIComponent(id)}`;

/** A collection's list, as JSON:API pages and as one CSV file. */
export function listApi<T>(client: ApiClient, collection: string) {
  return {
    list: (params: ListParams = {}) => client.list<T>(collection, params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv(collection, params),
  };
}

/**
 * The calls every plainly managed resource answers at its collection: the list (and as CSV), one record,
 * creating and updating one. Area clients spread it and add what is theirs alone.
 */
export function recordsApi<T, Input extends Attributes>(client: ApiClient, collection: string, type: string) {
  return {
    ...listApi<T>(client, collection),
    get: (id: string) => client.get<T>(at(collection, id)),
    create: (values: Input) => client.create<T>(collection, type, { ...values }),
    update: (id: string, values: Partial<Input>) => client.update<T>(at(collection, id), type, id, { ...values }),
  };
}

/** recordsApi for a resource that may also be removed. */
export function resourceApi<T, Input extends Attributes>(client: ApiClient, collection: string, type: string) {
  return { ...recordsApi<T, Input>(client, collection, type), remove: (id: string) => client.remove(at(collection, id)) };
}
