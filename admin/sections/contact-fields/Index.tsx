import { Link } from 'react-router-dom';
import { contactFieldsApi } from '@core/api/contactFields';
import { CONTACT_FIELD_DEFAULT_SORT, CONTACT_FIELD_SORTS, type ContactField } from '@core/model/contactField';
import { formatDate } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { deleteAction } from '../../components/list/bulk';
import { useApiResourceList } from '../../components/list/useResourceList';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { CONTACT_FIELD_LABELS as L, TYPE_LABELS } from './ContactFieldForm';

export default function ContactFieldsIndex() {
  const api = useApi(contactFieldsApi);
  const list = useApiResourceList(api, { defaultSort: CONTACT_FIELD_DEFAULT_SORT, sortable: CONTACT_FIELD_SORTS });
  const remove = useDeleteWithConfirm(api.remove, 'Contact field');

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('ContactFieldsAdd') }], search: list.search });

  const columns: Column<ContactField>[] = [
    {
      id: 'label',
      header: L.label,
      sortField: 'label',
      cell: (f) => <Link to={pathTo('ContactFieldsEdit', { id: f.id })}>{f.label}</Link>,
    },
    { id: 'name', header: L.name, sortField: 'name', cell: (f) => <code>{f.name}</code> },
    { id: 'fieldType', header: L.type, sortField: 'fieldType', cell: (f) => TYPE_LABELS[f.fieldType] ?? f.fieldType },
    { id: 'required', header: L.required, sortField: 'required', cell: (f) => (f.required ? 'Yes' : 'No') },
    { id: 'translations', header: L.translations, exportFields: ['translations'], cell: (f) => Object.keys(f.translations).length },
    { id: 'modified', header: L.modified, sortField: 'modified', cell: (f) => formatDate(f.modified) },
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
