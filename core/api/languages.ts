import { LANGUAGE_DEFAULT_LIMIT, LANGUAGE_TYPE, type Language, type LanguageInput } from '../model/language';
import type { ApiClient } from './client';
import { resourceApi } from './resourceApi';

export function languagesApi(client: ApiClient) {
  return {
    ...resourceApi<Language, LanguageInput>(client, 'languages', LANGUAGE_TYPE),
    /** Every active language, default first then by description. */
    active: () => client.list<Language>('languages', { limit: LANGUAGE_DEFAULT_LIMIT, isActive: true, sort: '-isDefault,description' }),
  };
}
