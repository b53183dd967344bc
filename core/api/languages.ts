import type { ListParams } from '../jsonapi';
import { LANGUAGE_DEFAULT_LIMIT, LANGUAGE_TYPE, type Language, type LanguageInput } from '../model/language';
import type { ApiClient } from './client';

export function languagesApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<Language>('languages', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('languages', params),
    /** Every active language, default first then by description. */
    active: () => client.list<Language>('languages', { limit: LANGUAGE_DEFAULT_LIMIT, isActive: true, sort: '-isDefault,description' }),
    get: (id: string) => client.get<Language>(`languages/${encodeURIComponent(id)}`),
    create: (values: LanguageInput) => client.create<Language>('languages', LANGUAGE_TYPE, { ...values }),
    update: (id: string, values: Partial<LanguageInput>) => client.update<Language>(`languages/${encodeURIComponent(id)}`, LANGUAGE_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(`languages/${encodeURIComponent(id)}`),
  };
}
