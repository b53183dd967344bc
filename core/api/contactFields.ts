import type { ListParams } from '../jsonapi';
import { CONTACT_FIELD_TYPE, type ContactField, type ContactFieldInput } from '../model/contactField';
import type { ApiClient } from './client';

export function contactFieldsApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<ContactField>('contact-fields', params),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('contact-fields', params),
    get: (id: string) => client.get<ContactField>(`contact-fields/${encodeURIComponent(id)}`),
    // SPEC section 7 spells the create with a trailing slash.
    create: (values: ContactFieldInput) => client.create<ContactField>('contact-fields/', CONTACT_FIELD_TYPE, { ...values }),
    update: (id: string, values: Partial<ContactFieldInput>) =>
      client.update<ContactField>(`contact-fields/${encodeURIComponent(id)}`, CONTACT_FIELD_TYPE, id, { ...values }),
    remove: (id: string) => client.remove(`contact-fields/${encodeURIComponent(id)}`),
  };
}
