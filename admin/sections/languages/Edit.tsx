import { RecordLoader } from '../../components/RecordLoader';
import { LanguageForm } from './LanguageForm';
import { useLanguage } from './useLanguage';

export default function LanguagesEdit() {
  return (
    <RecordLoader state={useLanguage()} resource="language">
      {(language) => <LanguageForm language={language} />}
    </RecordLoader>
  );
}
