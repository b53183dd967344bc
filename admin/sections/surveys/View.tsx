/** VersionedSurveyView: a version read-only — details, version bar, pages and their questions, and the flow. */
import { lazy, Suspense, useCallback, useState } from 'react';
import { surveysApi, type SurveyDetail, type PageWithQuestions } from '@core/api/surveys';
import type { OptionConfig } from '@core/model/survey';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { RecordLoader } from '../../components/RecordLoader';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useSurveyDetail } from './useSurveyDetail';
import { VERSIONED_SURVEY_LABELS as L, TYPE_LABELS, isFrozen, versionStatus } from './values';
import { VersionBar } from './VersionBar';
import { DropOffPanel } from './DropOffPanel';
import './surveys.css';

const SurveyFlow = lazy(() => import('./SurveyFlow'));

function transitionText(option: OptionConfig, pages: readonly PageWithQuestions[]): string {
  const t = option.transition;
  if (!t) return 'Next page';
  if (t.to === 'end') return 'End of survey';
  if (t.to === 'survey') return `Survey ${t.identity}`;
  return `Page: ${pages.find((p) => p.identity === t.identity)?.title ?? t.identity}`;
}

function PagesView({ pages }: { pages: readonly PageWithQuestions[] }) {
  return (
    <section className="panel" aria-label="Pages">
      <h2 className="section-title">Pages</h2>
      <ol className="page-view-list">
        {pages.map((page) => (
          <li key={page.id} aria-label={`Page ${page.title}`}>
            <h3>{page.title}</h3>
            {page.fields.length === 0 && <p className="muted">No questions.</p>}
            <ol>
              {page.fields.map((field) => (
                <li key={field.id}>
                  <strong>{field.title}</strong>{' '}
                  <span className="muted">
                    ({TYPE_LABELS[field.oFormFieldTypeId]}
                    {field.configuration.required ? ', required' : ''})
                  </span>
                  {field.configuration.helperText && <p className="muted">{field.configuration.helperText}</p>}
                  {field.configuration.options.length > 0 && (
                    <ul>
                      {field.configuration.options.map((o) => (
                        <li key={o.value}>
                          {o.label} → {transitionText(o, pages)}
                          {o.isDisqualified && <span className="badge badge-inactive"> Disqualifies</span>}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </section>
  );
}

function SurveyView({ initial }: { initial: SurveyDetail }) {
  const api = useApi(surveysApi);
  const [detail, setDetail] = useState(initial);
  const refresh = useCallback(async () => setDetail(await api.detail(initial.form.id)), [api, initial.form.id]);
  const { form } = detail;
  useTopBar({
    objectTitle: form.title,
    buttons: [
      { label: 'Back', to: pathTo('VersionedSurveyIndex') },
      { label: 'Screeners', to: pathTo('VersionedSurveyEditScreener', { id: form.id }) },
      ...(isFrozen(form) ? [] : [{ label: 'Edit', to: pathTo('VersionedSurveyEdit', { id: form.id }) }]),
    ],
  });
  return (
    <div className="survey-view">
      <VersionBar ctx={{ api, detail, refresh }} readOnly />
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.title, value: form.title },
            { label: L.version, value: form.version },
            { label: 'Status', value: versionStatus(form) },
            { label: L.isActive, value: form.isActive },
            { label: L.containerCount, value: form.containerCount },
            { label: L.engagementName, value: form.engagementName },
            { label: L.sponsorName, value: form.sponsorName },
            { label: 'Languages', value: detail.languages.map((l) => l.name).join(', ') },
            { label: L.identity, value: form.identity },
            { label: L.modified, value: formatDateTime(form.modified) },
          ]}
        />
      </section>
      <PagesView pages={detail.pages} />
      <DropOffPanel formId={form.id} />
      <Suspense fallback={<Loading />}>
        <SurveyFlow pages={detail.pages} />
      </Suspense>
    </div>
  );
}

export default function VersionedSurveyView() {
  return (
    <RecordLoader state={useSurveyDetail()} resource="survey">
      {(detail) => (
        <>
          <SurveyView key={detail.form.id} initial={detail} />
          <HistoryPanel entity="o-forms/o-forms" entityId={detail.form.id} labels={L} />
        </>
      )}
    </RecordLoader>
  );
}
