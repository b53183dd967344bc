import type { Attributes, ListParams } from '../jsonapi';
import type { ApiClient } from './client';

/**
 * The calls every plainly managed resource answers at its collection: the list (and as CSV), one record,
 * creating, updating and removing one. Area clients spread it and add what is theirs alone.
 */
export function resourceApi<T, Input extends Attributes>(client: ApiClient, collection: string, type: string) {
  const path = (id: string) => `${collection}/${encodeURIComponent(id)}`;
  return {
    list: (params: ListParams = {}) => client.list<T>(collection, params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv(collection, params),
    get: (id: string) => client.get<T>(path(id)),
    create: (values: Input) => client.create<T>(collection, type, { ...values }),
    update: (id: string, values: Partial<Input>) => client.update<T>(path(id), type, id, { ...values }),
    remove: (id: string) => client.remove(path(id)),
  };
}
