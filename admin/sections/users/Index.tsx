import { usersApi } from '@core/api/users';
import type { User } from '@core/model/user';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn, modifiedColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activationActions } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { displayValue } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { USER_LABELS as L } from './userValues';
import { USER_LIST } from './listCalls';

export default function UsersIndex() {
  const api = useApi(usersApi);
  const list = useApiResourceList(api, USER_LIST);

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('UsersAdd') }], search: list.search });

  const columns: Column<User>[] = [
    linkColumn('username', L.username, (u) => pathTo('UsersEdit', { id: u.id })),
    fieldColumn('email', L.email),
    // Roles come as the CSV's relationship column (the list includes them).
    { id: 'roles', header: L.roles, exportFields: [], cell: (u) => displayValue((u.roles ?? []).map((r) => r.name).join(', ')) },
    { id: 'twoFactor', header: L.secretVerified, exportFields: ['secretVerified'], cell: (u) => (u.secretVerified ? 'On' : 'Off') },
    activeColumn(L.isActive),
    modifiedColumn(L.modified),
    actionsColumn({ edit: (u) => pathTo('UsersEdit', { id: u.id }) }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Users"
      emptyMessage="No users yet."
      filters={[activeFilter()]}
      columnsKey="users"
      bulk={{ noun: ['user', 'users'], label: (u) => u.username, actions: activationActions<User>(api.update) }}
    />
  );
}
