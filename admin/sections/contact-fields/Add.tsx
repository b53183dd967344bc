import { ContactFieldForm } from './ContactFieldForm';

export default function ContactFieldsAdd() {
  return <ContactFieldForm />;
}
