import { legacySurveysApi } from '@core/api/legacySurveys';
import type { Survey } from '@core/model/legacySurvey';
import { RecordView } from '../../components/RecordView';
import { useViewTopBar } from '../../components/useViewTopBar';
import { activeField, recordFields, stampFields, ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
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
  useViewTopBar({
    objectTitle: survey.title,
    back: pathTo('SurveysIndex'),
    edit: pathTo('SurveysEdit', { id: survey.id }),
    remove: { run: api.remove, what: 'Survey', id: survey.id, name: survey.title, goTo: pathTo('SurveysIndex') },
  });
  return (
    <>
      <section className="panel">
        <ViewFields
          fields={recordFields(L, survey, ['title', 'engagementName', 'sponsorName', activeField(L, survey), 'globalId', ...stampFields(L, survey)])}
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
    <RecordView state={useLegacySurvey()} resource="survey" history="surveys" labels={L}>
      {(survey) => <SurveyDetails survey={survey} />}
    </RecordView>
  );
}
