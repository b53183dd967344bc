import { useParams } from 'react-router-dom';
import { ContactFieldForm } from './ContactFieldForm';

export default function ContactFieldsAdd() {
  const { screenerId } = useParams();
  return <ContactFieldForm key={screenerId ?? ''} screenerId={screenerId} />;
}
