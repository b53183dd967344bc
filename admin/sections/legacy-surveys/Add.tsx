import { useNavigate } from 'react-router-dom';
import { legacySurveysApi } from '@core/api/legacySurveys';
import { SurveyInput } from '@core/model/legacySurvey';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { RecordLoader } from '../../components/RecordLoader';
import { ViewFields } from '../../components/ViewFields';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { useEngagement } from '../engagements/useEngagement';
import { SURVEY_LABELS as L } from './values';

const FORM_ID = 'survey-add-form';

function SurveyAddForm({ engagementId, engagementName, sponsorName }: { engagementId: string; engagementName: string; sponsorName: string }) {
  const api = useApi(legacySurveysApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const form = useEntityForm({ title: '', isActive: true });

  useTopBar({
    objectTitle: engagementName,
    buttons: [
      { label: 'Cancel', to: pathTo('SurveysIndex') },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(SurveyInput, { ...values, engagementId: Number(engagementId) });
    if (!input) return;
    const survey = await api.create(input);
    notify('success', `Survey ${survey.title} saved.`);
    navigate(pathTo('SurveysEdit', { id: survey.id }));
  });

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <ViewFields
        fields={[
          { label: L.engagementName, value: engagementName },
          { label: L.sponsorName, value: sponsorName },
        ]}
      />
      <div className="form-grid">
        <TextField label={L.title} required maxLength={255} {...form.text('title')} />
        <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
      </div>
      <p className="muted">The survey starts with one page, New Page 1; add questions to it on the next screen.</p>
    </form>
  );
}

export default function SurveysAdd() {
  return (
    <RecordLoader state={useEngagement()} resource="engagement">
      {(engagement) => <SurveyAddForm engagementId={engagement.id} engagementName={engagement.name} sponsorName={engagement.sponsorName} />}
    </RecordLoader>
  );
}
