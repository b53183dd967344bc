/**
 * A compact recruitment funnel for one engagement, screener or media channel (their views),
 * with a link to the Recruitment screen narrowed to the same filter.
 */
import { Link } from 'react-router-dom';
import { funnelApi } from '@core/api/funnel';
import { rowCounts, zeroFunnelCounts, type FunnelGrouping } from '@core/model/funnel';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';
import { FunnelChart } from '../charts/lazy';
import { Loading } from '../Loading';
import { funnelParams, recruitmentPath, type FunnelFilterValues } from './funnelQuery';
import { ErrorText } from '../form/FormErrors';

export function FunnelPanel({
  filters,
  of,
  groupBy = 'none',
}: {
  filters: FunnelFilterValues;
  /** Whose funnel, e.g. 'this engagement'. */
  of: string;
  /** The breakdown the link opens with. */
  groupBy?: FunnelGrouping;
}) {
  const api = useApi(funnelApi);
  const key = JSON.stringify(filters);
  const funnel = useAsync(() => api.rows(funnelParams(filters, 'none')), [api, key]);
  const total = funnel.data?.rows[0];
  const counts = total ? rowCounts(total) : zeroFunnelCounts();
  return (
    <section className="panel" id="funnel" aria-labelledby="funnel-title">
      <div className="panel-heading">
        <h2 id="funnel-title">Recruitment funnel</h2>
        <div className="row-actions">
          <Link className="btn btn-small btn-secondary" to={recruitmentPath(filters, groupBy)}>
            Open in Recruitment
          </Link>
        </div>
      </div>
      {funnel.error ? (
        <ErrorText message="Could not load the funnel." />
      ) : funnel.loading && !funnel.data ? (
        <Loading />
      ) : (
        <FunnelChart compact counts={counts} definitions={funnel.data?.definitions} label={`Recruitment funnel of ${of}`} />
      )}
    </section>
  );
}
