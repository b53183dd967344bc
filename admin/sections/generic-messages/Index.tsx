import { genericMessagesApi } from '@core/api/genericMessages';
import { MESSAGE_TYPES, type GenericMessage } from '@core/model/genericMessage';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, fieldColumn, linkColumn, modifiedColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { useApiResourceList } from '../../components/list/useResourceList';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { GENERIC_MESSAGE_LIST } from './listCalls';

const TYPE_LABELS: Record<string, string> = { default: 'Default', global: 'Global' };

export default function GenericMessagesIndex() {
  const api = useApi(genericMessagesApi);
  const list = useApiResourceList(api, GENERIC_MESSAGE_LIST);

  useTopBar({ search: list.search });

  const columns: Column<GenericMessage>[] = [
    linkColumn('keyName', 'Key', (m) => pathTo('GenericMessagesEdit', { id: m.id })),
    fieldColumn('message', 'Message', 'plain'),
    { id: 'translations', header: 'Translations', exportFields: ['translations'], cell: (m) => Object.keys(m.translations).length },
    { id: 'messageType', header: 'Type', sortField: 'messageType', cell: (m) => TYPE_LABELS[m.messageType] ?? m.messageType },
    modifiedColumn('Modified'),
    actionsColumn({ edit: (m) => pathTo('GenericMessagesEdit', { id: m.id }) }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Generic Messages"
      emptyMessage="No messages."
      filters={[{ kind: 'select', name: 'messageType', label: 'Message Type', options: MESSAGE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] ?? t })) }]}
    />
  );
}
