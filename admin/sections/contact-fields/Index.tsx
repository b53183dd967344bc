import { contactFieldsApi } from '@core/api/contactFields';
import type { ContactField } from '@core/model/contactField';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, linkColumn, modifiedColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { deleteAction } from '../../components/list/bulk';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { CONTACT_FIELD_LABELS as L, TYPE_LABELS } from './contactFieldValues';
import { CONTACT_FIELD_LIST } from './listCalls';

export default function ContactFieldsIndex() {
  const api = useApi(contactFieldsApi);
  const { list, remove } = useIndexList(api, {
    ...CONTACT_FIELD_LIST,
    what: 'Contact field',
    add: pathTo('ContactFieldsAdd'),
  });

  const columns: Column<ContactField>[] = [
    linkColumn('label', L.label, (f) => pathTo('ContactFieldsEdit', { id: f.id })),
    { id: 'name', header: L.name, sortField: 'name', cell: (f) => <code>{f.name}</code> },
    { id: 'fieldType', header: L.type, sortField: 'fieldType', cell: (f) => TYPE_LABELS[f.fieldType] ?? f.fieldType },
    { id: 'required', header: L.required, sortField: 'required', cell: (f) => (f.required ? 'Yes' : 'No') },
    { id: 'translations', header: L.translations, exportFields: ['translations'], cell: (f) => Object.keys(f.translations).length },
    modifiedColumn(L.modified),
    actionsColumn({ edit: (f) => pathTo('ContactFieldsEdit', { id: f.id }), remove: { confirmAndDelete: remove, reload: list.reload } }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Contact Fields"
      emptyMessage="No contact fields yet."
      bulk={{ noun: ['contact field', 'contact fields'], label: (f) => f.label, actions: [deleteAction<ContactField>(api.remove)] }}
    />
  );
}
