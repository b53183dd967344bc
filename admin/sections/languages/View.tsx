import { languagesApi } from '@core/api/languages';
import { toUiIsoCode } from '@core/i18n';
import type { Language } from '@core/model/language';
import { RecordView } from '../../components/RecordView';
import { useViewTopBar } from '../../components/useViewTopBar';
import { activeField, recordFields, stampFields, ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { LANGUAGE_LABELS as L } from './languageValues';
import { useLanguage } from './useLanguage';

function LanguageDetails({ language }: { language: Language }) {
  const api = useApi(languagesApi);
  useViewTopBar({
    objectTitle: language.description,
    back: pathTo('LanguagesIndex'),
    edit: pathTo('LanguagesEdit', { id: language.id }),
    // The default language stays: the widget falls back to it.
    remove: !language.isDefault && { run: api.remove, what: 'Language', id: language.id, name: language.name, goTo: pathTo('LanguagesIndex') },
  });
  return (
    <section className="panel">
      <ViewFields
        fields={recordFields(L, language, [
          'name',
          'description',
          { label: L.isoCode, value: toUiIsoCode(language.isoCode) },
          activeField(L, language),
          'isDefault',
          ...stampFields(L, language),
        ])}
      />
    </section>
  );
}

export default function LanguagesView() {
  return (
    <RecordView state={useLanguage()} resource="language" history="languages" labels={L}>
      {(language) => <LanguageDetails language={language} />}
    </RecordView>
  );
}
