import { Link } from 'react-router-dom';
import { languagesApi } from '@core/api/languages';
import { toUiIsoCode } from '@core/i18n';
import { LANGUAGE_DEFAULT_LIMIT, LANGUAGE_DEFAULT_SORT, LANGUAGE_SORTS, type Language } from '@core/model/language';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { LANGUAGE_LABELS as L } from './languageValues';

export default function LanguagesIndex() {
  const api = useApi(languagesApi);
  const list = useApiResourceList(api, {
    filterNames: ['isActive'],
    defaultSort: LANGUAGE_DEFAULT_SORT,
    sortable: LANGUAGE_SORTS,
    defaultLimit: LANGUAGE_DEFAULT_LIMIT,
  });
  const remove = useDeleteWithConfirm(api.remove, 'Language');

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('LanguagesAdd') }], search: list.search });

  const columns: Column<Language>[] = [
    {
      id: 'description',
      header: L.description,
      sortField: 'description',
      cell: (l) => <Link to={pathTo('LanguagesView', { id: l.id })}>{l.description}</Link>,
    },
    { id: 'name', header: L.name, sortField: 'name', cell: (l) => l.name },
    { id: 'isoCode', header: L.isoCode, sortField: 'isoCode', cell: (l) => toUiIsoCode(l.isoCode) },
    { id: 'default', header: L.isDefault, sortField: 'isDefault', cell: (l) => (l.isDefault ? 'Default' : '') },
    activeColumn(L.isActive),
    actionsColumn({
      view: (l) => pathTo('LanguagesView', { id: l.id }),
      edit: (l) => pathTo('LanguagesEdit', { id: l.id }),
      remove: { confirmAndDelete: remove, reload: list.reload, when: (l) => !l.isDefault },
    }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Languages"
      emptyMessage="No languages yet."
      filters={[activeFilter()]}
      // The default language is always active and is never deleted: the server says so for its row.
      bulk={activateAndDeleteBulk<Language>(api, ['language', 'languages'], (l) => l.description)}
    />
  );
}
