import { useNavigate } from 'react-router-dom';
import { languagesApi } from '@core/api/languages';
import { toUiIsoCode } from '@core/i18n';
import type { Language } from '@core/model/language';
import { formatDateTime } from '../../components/format';
import { RecordLoader } from '../../components/RecordLoader';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { LANGUAGE_LABELS as L } from './languageValues';
import { useLanguage } from './useLanguage';

function LanguageDetails({ language }: { language: Language }) {
  const api = useApi(languagesApi);
  const navigate = useNavigate();
  const remove = useDeleteWithConfirm(api.remove, 'Language');

  useTopBar({
    objectTitle: language.description,
    buttons: [
      { label: 'Back', to: pathTo('LanguagesIndex') },
      { label: 'Edit', to: pathTo('LanguagesEdit', { id: language.id }), variant: 'primary' },
      ...(language.isDefault
        ? []
        : [
            {
              label: 'Delete',
              onClick: async () => {
                if (await remove(language.id, language.name)) navigate(pathTo('LanguagesIndex'));
              },
            },
          ]),
    ],
  });

  return (
    <section className="panel">
      <ViewFields
        fields={[
          { label: L.name, value: language.name },
          { label: L.description, value: language.description },
          { label: L.isoCode, value: toUiIsoCode(language.isoCode) },
          { label: L.isActive, value: <StatusBadge active={language.isActive} /> },
          { label: L.isDefault, value: language.isDefault },
          { label: L.created, value: formatDateTime(language.created) },
          { label: L.modified, value: formatDateTime(language.modified) },
        ]}
      />
    </section>
  );
}

export default function LanguagesView() {
  return (
    <RecordLoader state={useLanguage()} resource="language">
      {(language) => (
        <>
          <LanguageDetails language={language} />
          <HistoryPanel entity="languages" entityId={language.id} labels={L} />
        </>
      )}
    </RecordLoader>
  );
}
