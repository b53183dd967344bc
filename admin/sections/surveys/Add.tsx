/**
 * VersionedSurveyAdd: a new survey (version 1, with 'New Page 1') for an engagement. Reached from a
 * screener (add/{screenerId}), the new survey is also linked to that screener, so only the
 * screener's sponsor's engagements are offered (the server refuses a survey of another sponsor).
 */
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { engagementsApi } from '@core/api/engagements';
import { surveysApi } from '@core/api/surveys';
import { screenersApi } from '@core/api/screeners';
import { NewSurveyInput } from '@core/model/surveyDoc';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { Select } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { ViewFields } from '../../components/ViewFields';
import { useAsync } from '../../hooks/useAsync';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { VERSIONED_SURVEY_LABELS as L } from './values';

const FORM_ID = 'versioned-survey-add-form';

export default function VersionedSurveyAdd() {
  const { screenerId } = useParams();
  const api = useApi(surveysApi);
  const engagements = useApi(engagementsApi);
  const screeners = useApi(screenersApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const screener = useAsync(() => (screenerId ? screeners.get(screenerId) : Promise.resolve(null)), [screeners, screenerId]);
  // From a screener, its sponsor's engagements only (known once the screener has loaded).
  const sponsorId = screenerId ? screener.data?.sponsorId : undefined;
  const waiting = screenerId !== undefined && sponsorId === undefined && !screener.error;
  const engagementOptions = useOptions(
    () =>
      waiting
        ? Promise.resolve([])
        : engagements
            .list({ limit: 1000, sort: 'name', ...(sponsorId === undefined ? {} : { sponsorId: String(sponsorId) }) })
            .then((r) => r.items.map((e) => ({ value: e.id, label: `${e.name} (${e.sponsorName})` }))),
    [engagements, waiting, sponsorId],
    'Could not load engagements',
  );
  const form = useEntityForm({ title: '', engagementId: '', isActive: true });
  // A screener serving one engagement: its new survey is for that one, unless the user chose already.
  const onlyEngagement = screener.data?.engagements.length === 1 ? String(screener.data.engagements[0]!.id) : null;
  const { preset } = form;
  const chosen = useRef(form.values.engagementId);
  chosen.current = form.values.engagementId;
  const presetDone = useRef(false);
  useEffect(() => {
    // Once, when the screener arrives: a user who chose or cleared it since keeps their choice.
    if (!onlyEngagement || presetDone.current) return;
    presetDone.current = true;
    if (chosen.current === '') preset('engagementId', onlyEngagement);
  }, [onlyEngagement, preset]);

  useTopBar({
    objectTitle: screener.data?.title,
    buttons: [
      { label: 'Cancel', to: screenerId ? pathTo('ScreenerView', { screenerId }) : pathTo('VersionedSurveyIndex') },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(NewSurveyInput, { ...values, engagementId: values.engagementId ? Number(values.engagementId) : undefined });
    if (!input) return;
    const created = await api.create(input);
    if (screenerId) await screeners.addSurvey(screenerId, created.identity);
    notify('success', `Survey ${created.title} saved.`);
    navigate(pathTo('VersionedSurveyEdit', { id: created.id }));
  });

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      {screener.data && <ViewFields fields={[{ label: 'Screener', value: screener.data.title }]} />}
      <div className="form-grid">
        <TextField label={L.title} required maxLength={255} {...form.text('title')} />
        <Select
          label={L.engagementName}
          required
          emptyLabel="Choose an engagement"
          options={engagementOptions.options}
          loading={engagementOptions.loading || waiting}
          {...form.text('engagementId')}
          error={form.errors.engagementId ?? engagementOptions.error ?? (screener.error ? 'Could not load the screener' : undefined)}
        />
        <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
      </div>
      <p className="muted">The survey starts as version 1 with one page, New Page 1.</p>
    </form>
  );
}
