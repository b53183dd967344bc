import { Link } from 'react-router-dom';
import { usersApi } from '@core/api/users';
import { USER_DEFAULT_SORT, USER_SORTS, type User } from '@core/model/user';
import { formatDate } from '../../components/format';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activationActions } from '../../components/list/bulk';
import { activeFilter } from '../../components/list/filters';
import { useApiResourceList } from '../../components/list/useResourceList';
import { displayValue } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { USER_LABELS as L } from './userValues';

export default function UsersIndex() {
  const api = useApi(usersApi);
  const list = useApiResourceList(api, { defaultSort: USER_DEFAULT_SORT, sortable: USER_SORTS, filterNames: ['isActive'] });

  useTopBar({ buttons: [{ label: 'Add', to: pathTo('UsersAdd') }], search: list.search });

  const columns: Column<User>[] = [
    {
      id: 'username',
      header: L.username,
      sortField: 'username',
      cell: (u) => <Link to={pathTo('UsersEdit', { id: u.id })}>{u.username}</Link>,
    },
    { id: 'email', header: L.email, sortField: 'email', cell: (u) => displayValue(u.email) },
    // Roles come as the CSV's relationship column (the list includes them).
    { id: 'roles', header: L.roles, exportFields: [], cell: (u) => displayValue((u.roles ?? []).map((r) => r.name).join(', ')) },
    { id: 'twoFactor', header: L.secretVerified, exportFields: ['secretVerified'], cell: (u) => (u.secretVerified ? 'On' : 'Off') },
    activeColumn(L.isActive),
    { id: 'modified', header: L.modified, sortField: 'modified', cell: (u) => formatDate(u.modified) },
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
