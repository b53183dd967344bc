import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { screenersApi } from '@core/api/screeners';
import { SCREENER_DEFAULT_SORT } from '@core/model/screener';
import { useMemo } from 'react';
import { hasRole } from '@core/model/user';
import { DataTable } from '../../components/list/DataTable';
import { useListData } from '../../components/list/useResourceList';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { pathTo } from '../../routing/routes';
import { currentUserAtom } from '../../state/auth';
import { useApi } from '../../state/services';
import { screenerColumns } from './Index';
import { ErrorText } from '../../components/form/FormErrors';

/** A sponsor's screeners, with an Add that preselects the sponsor (Admin or Super User). */
export function SponsorScreeners({ sponsorId }: { sponsorId: string }) {
  const api = useApi(screenersApi);
  const user = useAtomValue(currentUserAtom);
  const canEdit = hasRole(user, 'Admin', 'Super User');
  // Not URL-backed: the sponsor's page already keeps its engagement list's paging in the URL.
  const params = useMemo(() => ({ sponsorId, limit: 100, sort: SCREENER_DEFAULT_SORT }), [sponsorId]);
  const list = useListData(api.list, params);
  const remove = useDeleteWithConfirm(api.remove, 'Screener');
  return (
    <section className="panel" id="screeners" aria-labelledby="sponsor-screeners-title">
      <div className="panel-heading">
        <h2 id="sponsor-screeners-title">Screeners</h2>
        {canEdit && (
          <Link className="btn btn-small btn-secondary" to={pathTo('ScreenerAdd', { selectedSponsorId: sponsorId })}>
            Add Screener
          </Link>
        )}
      </div>
      <ErrorText message={list.error} />
      <DataTable
        caption="Sponsor screeners"
        rowKey={(s) => s.id}
        rows={list.items}
        loading={list.loading}
        columns={screenerColumns(canEdit ? remove : null, list.reload, false).map(({ sortField: _sort, ...c }) => c)}
        emptyMessage="No screeners yet."
      />
    </section>
  );
}
