import { CONTACT_FIELD_TYPE, type ContactField, type ContactFieldInput } from '../model/contactField';
import type { ApiClient } from './client';
import { resourceApi } from './resourceApi';

export function contactFieldsApi(client: ApiClient) {
  return {
    ...resourceApi<ContactField, ContactFieldInput>(client, 'contact-fields', CONTACT_FIELD_TYPE),
    // SPEC section 7 spells the create with a trailing slash.
    create: (values: ContactFieldInput) => client.create<ContactField>('contact-fields/', CONTACT_FIELD_TYPE, { ...values }),
  };
}
