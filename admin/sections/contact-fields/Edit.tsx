import { useParams } from 'react-router-dom';
import { contactFieldsApi } from '@core/api/contactFields';
import { RecordLoader } from '../../components/RecordLoader';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';
import { ContactFieldForm } from './ContactFieldForm';

export default function ContactFieldsEdit() {
  const { id = '' } = useParams();
  const api = useApi(contactFieldsApi);
  const state = useAsync(() => api.get(id), [api, id]);
  return (
    <RecordLoader state={state} resource="contact field">
      {(field) => <ContactFieldForm field={field} />}
    </RecordLoader>
  );
}
