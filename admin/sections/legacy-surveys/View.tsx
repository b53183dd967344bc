import { useNavigate } from 'react-router-dom';
import { legacySurveysApi } from '@core/api/legacySurveys';
import type { Survey } from '@core/model/legacySurvey';
import { formatDateTime } from '../../components/format';
import { RecordLoader } from '../../components/RecordLoader';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { StatusBadge } from '../../components/StatusBadge';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { SURVEY_LABELS as L, TYPE_LABELS } from './values';
import { useLegacySurvey } from './useLegacySurvey';

/** Where an option leads, in words. */
export function transitionText(survey: Survey, transitionTo: string | null, target: string | null): string {
  if (transitionTo === 'end') return 'End of survey';
  if (transitionTo === 'page') return `Page: ${survey.pages?.find((p) => p.id === target)?.title ?? target}`;
  return 'Next page';
}

function SurveyDetails({ survey }: { survey: Survey }) {
  const api = useApi(legacySurveysApi);
  const navigate = useNavigate();
  const remove = useDeleteWithConfirm(api.remove, 'Survey');

  useTopBar({
    objectTitle: survey.title,
    buttons: [
      { label: 'Back', to: pathTo('SurveysIndex') },
      { label: 'Edit', to: pathTo('SurveysEdit', { id: survey.id }), variant: 'primary' },
      {
        label: 'Delete',
        onClick: async () => {
          if (await remove(survey.id, survey.title)) navigate(pathTo('SurveysIndex'));
        },
      },
    ],
  });

  return (
    <>
      <section className="panel">
        <ViewFields
          fields={[
            { label: L.title, value: survey.title },
            { label: L.engagementName, value: survey.engagementName },
            { label: L.sponsorName, value: survey.sponsorName },
            { label: L.isActive, value: <StatusBadge active={survey.isActive} /> },
            { label: L.globalId, value: survey.globalId },
            { label: L.created, value: formatDateTime(survey.created) },
            { label: L.modified, value: formatDateTime(survey.modified) },
          ]}
        />
      </section>
      {(survey.pages ?? []).map((page) => (
        <section key={page.id} className="panel survey-view-page" aria-label={page.title}>
          <h2 className="section-title">
            {page.displayOrder}. {page.title}
          </h2>
          {page.questions.length === 0 && <p className="muted">No questions on this page.</p>}
          <ol>
            {page.questions.map((question) => (
              <li key={question.id}>
                <strong>{question.title}</strong> <span className="muted">({TYPE_LABELS[question.questionType] ?? question.questionType})</span>
                {question.helperText && <div className="muted">{question.helperText}</div>}
                {question.options.length > 0 && (
                  <ul>
                    {question.options.map((option) => (
                      <li key={option.id}>
                        {option.label} <code>{option.value}</code>
                        {option.isDisqualified && <span className="badge badge-inactive">Disqualifies</span>} →{' '}
                        {transitionText(survey, option.transitionTo, option.transitionTarget)}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </>
  );
}

export default function SurveysView() {
  return (
    <RecordLoader state={useLegacySurvey()} resource="survey">
      {(survey) => (
        <>
          <SurveyDetails survey={survey} />
          <HistoryPanel entity="surveys" entityId={survey.id} labels={L} />
        </>
      )}
    </RecordLoader>
  );
}
