import { useAtomValue } from 'jotai';
import { sponsorsApi } from '@core/api/sponsors';
import type { Sponsor } from '@core/model/sponsor';
import { hasRole } from '@core/model/user';
import type { Column } from '../../components/list/DataTable';
import { actionsColumn, activeColumn, fieldColumn, linkColumn, modifiedColumn } from '../../components/list/columns';
import { ListView } from '../../components/list/ListView';
import { activationActions, deleteAction } from '../../components/list/bulk';
import { displayValue } from '../../components/ViewFields';
import { useIndexList } from '../../components/list/useIndexList';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { SPONSOR_FILTERS, SPONSOR_LIST } from './listCalls';
import { SPONSOR_LABELS as L } from './sponsorValues';

export default function SponsorsIndex() {
  const api = useApi(sponsorsApi);
  // Sponsors are created and deleted by Admins and Super Users only (the server refuses others).
  const canAddAndDelete = hasRole(useAtomValue(currentUserAtom), 'Admin', 'Super User');
  const { list, remove } = useIndexList(api, { ...SPONSOR_LIST, what: 'Sponsor', add: canAddAndDelete && pathTo('SponsorsAdd') });

  const columns: Column<Sponsor>[] = [
    linkColumn('name', L.name, (s) => pathTo('SponsorsView', { id: s.id })),
    fieldColumn('identification', L.identification, 'plain'),
    { id: 'country', header: L.countryName, sortField: 'countryName', cell: (s) => displayValue(s.countryName) },
    activeColumn(L.isActive),
    modifiedColumn(L.modified),
    // Figures over the sponsor's engagements, their sites and their referrals.
    {
      id: 'engagements',
      header: L.engagements,
      className: 'col-number',
      exportFields: ['activeEngagements', 'totalEngagements'],
      cell: (s) => `${s.activeEngagements} / ${s.totalEngagements}`,
    },
    { id: 'sites', header: L.totalSites, className: 'col-number', exportFields: ['totalSites'], cell: (s) => s.totalSites },
    // One column for the three referral figures, as for engagements: the list fits a laptop's screen.
    {
      id: 'referrals',
      header: L.referrals,
      className: 'col-number',
      exportFields: ['totalReferrals', 'totalScreenedReferrals', 'totalRandomizedReferrals', 'duplicateReferrals'],
      // Duplicates are not referrals (never sent), so they stand beside the total, not in it.
      cell: (s) =>
        `${s.totalReferrals} / ${s.totalScreenedReferrals} / ${s.totalRandomizedReferrals}` +
        (s.duplicateReferrals > 0 ? ` (+${s.duplicateReferrals} ${s.duplicateReferrals === 1 ? 'duplicate' : 'duplicates'})` : ''),
    },
    actionsColumn({
      view: (s) => pathTo('SponsorsView', { id: s.id }),
      edit: (s) => pathTo('SponsorsEdit', { id: s.id }),
      remove: canAddAndDelete ? { confirmAndDelete: remove, reload: list.reload } : undefined,
    }),
  ];

  return (
    <ListView
      list={list}
      columns={columns}
      caption="Sponsors"
      emptyMessage="No sponsors yet."
      filters={SPONSOR_FILTERS}
      columnsKey="sponsors"
      bulk={{
        noun: ['sponsor', 'sponsors'],
        label: (s) => s.name,
        actions: [...activationActions<Sponsor>(api.update), ...(canAddAndDelete ? [deleteAction<Sponsor>(api.remove)] : [])],
      }}
    />
  );
}
