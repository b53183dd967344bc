import { languagesApi } from '@core/api/languages';
import { toUiIsoCode } from '@core/i18n';
import type { Language } from '@core/model/language';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { LANGUAGE_LABELS as L } from './languageValues';
import { LANGUAGE_LIST } from './listCalls';

export default function LanguagesIndex() {
  const api = useApi(languagesApi);
  const { list, remove } = useIndexList(api, {
    ...LANGUAGE_LIST,
    what: 'Language',
    add: pathTo('LanguagesAdd'),
  });

  const columns: Column<Language>[] = [
    linkColumn('description', L.description, (l) => pathTo('LanguagesView', { id: l.id })),
    fieldColumn('name', L.name, 'plain'),
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
