import { LanguageForm } from './LanguageForm';

export default function LanguagesAdd() {
  return <LanguageForm />;
}
