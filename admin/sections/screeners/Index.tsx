import { useAtomValue } from 'jotai';
import { screenersApi } from '@core/api/screeners';
import type { Screener } from '@core/model/screener';
import { hasRole } from '@core/model/user';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activateAndDeleteBulk } from '../../components/list/bulk';
import { activeFilter, sponsorFilter } from '../../components/list/filters';
import { useSponsorOptions } from '../../hooks/useSponsorOptions';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { SCREENER_LABELS as L } from './screenerValues';
import { SCREENER_LIST } from './listCalls';

export function screenerColumns(remove: ((id: string) => Promise<boolean>) | null, reload: () => void, withSponsor = true): Column<Screener>[] {
  return [
    linkColumn('title', L.title, (s) => pathTo('ScreenerView', { screenerId: s.id })),
    ...(withSponsor
      ? [{ id: 'sponsor', header: L.sponsorName, sortField: 'sponsorName', cell: (s: Screener) => s.sponsorName } satisfies Column<Screener>]
      : []),
    fieldColumn('screenerType', L.type, 'plain'),
    { id: 'engagements', header: L.engagements, exportFields: ['engagements'], cell: (s) => s.engagements.map((e) => e.name).join(', ') },
    { id: 'locked', header: L.isLocked, sortField: 'isLocked', cell: (s) => (s.isLocked ? 'Locked' : '') },
    activeColumn(L.isActive),
    actionsColumn({
      view: (s) => pathTo('ScreenerView', { screenerId: s.id }),
      edit: (s) => (remove && !s.isLocked ? pathTo('ScreenerEdit', { screenerId: s.id }) : undefined),
      remove: remove ? { confirmAndDelete: remove, reload, when: (s) => !s.isLocked } : undefined,
    }),
  ];
}

export default function ScreenerIndex() {
  const api = useApi(screenersApi);
  const user = useAtomValue(currentUserAtom);
  const sponsors = useSponsorOptions();
  const { list, remove } = useIndexList(api, {
    ...SCREENER_LIST,
    what: 'Screener',
  });
  // Screeners are changed by Admins and Super Users (the server refuses others).
  const canEdit = hasRole(user, 'Admin', 'Super User');
  return (
    <ListView
      list={list}
      columns={screenerColumns(canEdit ? remove : null, list.reload)}
      caption="Screeners"
      emptyMessage="No screeners yet. Add one from a sponsor's page."
      filters={[sponsorFilter(sponsors), activeFilter()]}
      columnsKey="screeners"
      bulk={canEdit ? activateAndDeleteBulk<Screener>(api, ['screener', 'screeners'], (s) => s.title) : undefined}
    />
  );
}
