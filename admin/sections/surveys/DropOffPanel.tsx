/**
 * A survey version's drop-off per page (GET /api/survey-page-metrics/{id}): the runs that
 * reached each page and those that left the survey there, with the time on the page. The same
 * figures as the metrics CSV (Export metrics).
 */
import { funnelApi } from '@core/api/funnel';
import { PageDropOffChart } from '../../components/charts/lazy';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useApi } from '../../state/services';
import { ErrorText } from '../../components/form/FormErrors';

export function DropOffPanel({ formId }: { formId: string }) {
  const api = useApi(funnelApi);
  const metrics = useAsync(() => api.pageMetrics(formId), [api, formId]);
  return (
    <section className="panel" id="drop-off" aria-labelledby="drop-off-title">
      <h2 id="drop-off-title">Drop-off per page</h2>
      {metrics.error ? (
        <ErrorText message="Could not load the page metrics." />
      ) : metrics.loading && !metrics.data ? (
        <Loading />
      ) : metrics.data?.length ? (
        <PageDropOffChart pages={metrics.data} label="Drop-off per page" />
      ) : (
        <p className="muted">This version has no pages yet.</p>
      )}
    </section>
  );
}
