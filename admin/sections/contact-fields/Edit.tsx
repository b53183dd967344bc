import { contactFieldsApi } from '@core/api/contactFields';
import { RecordLoader } from '../../components/RecordLoader';
import { useRouteRecord } from '../../hooks/useRouteRecord';
import { ContactFieldForm } from './ContactFieldForm';

export default function ContactFieldsEdit() {
  return (
    <RecordLoader state={useRouteRecord(contactFieldsApi, (api, id) => api.get(id))} resource="contact field">
      {(field) => <ContactFieldForm field={field} />}
    </RecordLoader>
  );
}
