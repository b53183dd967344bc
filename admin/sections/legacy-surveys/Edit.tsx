/**
 * SurveysEdit: the legacy survey's details and its page / question / option editor (PagesPanel,
 * PageEditor, QuestionEditor, OptionEditor, EngagementOverrides). Every change is one API call
 * (busy while it runs); the survey is read again afterwards, so what is shown is what the server
 * kept. A failed call shows the SPEC's message and keeps what was typed.
 */
import { useCallback, useState } from 'react';
import { engagementsApi } from '@core/api/engagements';
import { legacySurveysApi } from '@core/api/legacySurveys';
import { lookupsApi } from '@core/api/lookups';
import { LOOKUP_TYPES } from '@core/model/lookup';
import { SurveyPatch, type Survey } from '@core/model/legacySurvey';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { RecordLoader } from '../../components/RecordLoader';
import { useActiveLanguages } from '../../hooks/useLanguages';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import type { EditorContext } from './editorContext';
import { PageEditor } from './PageEditor';
import { PagesPanel } from './PagesPanel';
import { useLegacySurvey } from './useLegacySurvey';
import { SURVEY_LABELS as L } from './values';

const FORM_ID = 'survey-edit-form';

function SurveyEditor({ initial }: { initial: Survey }) {
  const api = useApi(legacySurveysApi);
  const lookups = useApi(lookupsApi);
  const engagementApi = useApi(engagementsApi);
  const notify = useNotify();
  const [survey, setSurvey] = useState(initial);
  const [selected, setSelected] = useState(initial.pages?.[0]?.id ?? '');
  const languages = useActiveLanguages();
  const toOptions = (items: { id: string; name: string }[]) => items.map((i) => ({ value: i.id, label: i.name }));
  const categories = useOptions(() => lookups.all(LOOKUP_TYPES.questionCategories).then(toOptions), [lookups], 'Could not load question categories');
  const tags = useOptions(() => lookups.all(LOOKUP_TYPES.tags).then(toOptions), [lookups], 'Could not load tags');
  const engagements = useOptions(
    () =>
      initial.sponsorId
        ? engagementApi.list({ sponsorId: initial.sponsorId, limit: 1000, sort: 'name' }).then((r) => r.items.map((e) => ({ value: e.id, label: e.name })))
        : Promise.resolve(initial.engagementId ? [{ value: initial.engagementId, label: initial.engagementName ?? initial.engagementId }] : []),
    [engagementApi, initial.sponsorId],
    'Could not load engagements',
  );

  const refresh = useCallback(async () => {
    setSurvey(await api.get(initial.id));
  }, [api, initial.id]);

  const form = useEntityForm({ title: initial.title, isActive: initial.isActive });
  useTopBar({
    objectTitle: survey.title,
    buttons: [
      { label: 'Done', to: pathTo('SurveysView', { id: survey.id }) },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(SurveyPatch, values);
    if (!input) return;
    await api.update(survey.id, input);
    await refresh();
    notify('success', `Survey ${input.title ?? survey.title} saved.`);
  });

  const pages = survey.pages ?? [];
  const page = pages.find((p) => p.id === selected) ?? pages[0];
  const ctx: EditorContext = { api, survey, pages, refresh, categories, tags, languages: languages.translated, engagements };

  return (
    <div className="survey-editor">
      <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
        <FormErrors message={form.formError} />
        <div className="form-grid">
          <TextField label={L.title} required maxLength={255} {...form.text('title')} />
          <Checkbox label={L.isActive} {...form.checkbox('isActive')} />
        </div>
        <p className="muted">
          {L.engagementName}: {survey.engagementName ?? '—'} · {L.sponsorName}: {survey.sponsorName ?? '—'}
        </p>
      </form>
      <div className="survey-editor-body">
        <PagesPanel ctx={ctx} selected={page?.id ?? ''} onSelect={setSelected} />
        {page ? <PageEditor key={page.id} ctx={ctx} page={page} /> : <p className="muted">This survey has no pages. Add one.</p>}
      </div>
    </div>
  );
}

export default function SurveysEdit() {
  return (
    <RecordLoader state={useLegacySurvey()} resource="survey">
      {(survey) => <SurveyEditor key={survey.id} initial={survey} />}
    </RecordLoader>
  );
}
