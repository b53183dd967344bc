import type { ReactNode } from 'react';
import type { AsyncState } from '../hooks/useAsync';
import { HistoryPanel } from './history/HistoryPanel';
import { RecordLoader } from './RecordLoader';

/**
 * A view screen: the record's loading states, then what the screen shows of it, then its
 * history (the audit trail) in the screen's labels.
 */
export function RecordView<T extends { id: string }>({
  state,
  resource,
  history,
  labels,
  children,
}: {
  state: AsyncState<T>;
  /** Names the record in the 403/404 texts, e.g. 'sponsor'. */
  resource: string;
  /** The record's API path, the audit trail's entity, e.g. 'sponsors'. */
  history: string;
  labels: Readonly<Record<string, string>>;
  children: (record: T) => ReactNode;
}) {
  return (
    <RecordLoader state={state} resource={resource}>
      {(record) => (
        <>
          {children(record)}
          <HistoryPanel entity={history} entityId={record.id} labels={labels} />
        </>
      )}
    </RecordLoader>
  );
}
