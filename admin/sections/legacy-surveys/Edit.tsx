/**
 * SurveysEdit: the legacy survey's details and its page / question / option editor. Every
 * change is one API call (busy while it runs); the survey is read again afterwards, so what is
 * shown is what the server kept. A failed call shows the SPEC's message and keeps what was typed.
 */
import { useCallback, useEffect, useState } from 'react';
import { engagementsApi } from '@core/api/engagements';
import { legacySurveysApi } from '@core/api/legacySurveys';
import { lookupsApi } from '@core/api/lookups';
import { LOOKUP_TYPES } from '@core/model/lookup';
import { SurveyPatch, pageSummaries, type Survey, type SurveyOption, type SurveyPage, type SurveyQuestion } from '@core/model/legacySurvey';
import type { Language } from '@core/model/language';
import { FIELD_TYPES, isChoiceType, type FieldType } from '@core/model/oform';
import { transitionTargets } from '@core/oform/authoring';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { Select, type SelectOption } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { RecordLoader } from '../../components/RecordLoader';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { useUnsavedValue } from '../../components/unsaved/UnsavedChanges';
import { languageLabel, useActiveLanguages } from '../../hooks/useLanguages';
import { useOptions, type OptionsState } from '../../hooks/useOptions';
import { useAction } from '../../hooks/useAction';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import {
  ADD_OPTION_FAILED,
  ADD_PAGE_FAILED,
  ADD_QUESTION_FAILED,
  SAVE_FAILED,
  SURVEY_LABELS as L,
  TYPE_LABELS,
  UPDATE_OPTION_ENGAGEMENTS_FAILED,
} from './values';
import { useLegacySurvey } from './useLegacySurvey';

const FORM_ID = 'survey-edit-form';

type Api = ReturnType<typeof legacySurveysApi>;

interface EditorContext {
  api: Api;
  survey: Survey;
  pages: SurveyPage[];
  /** Reads the survey again after a change. */
  refresh: () => Promise<void>;
  categories: OptionsState;
  tags: OptionsState;
  languages: Language[];
  engagements: OptionsState;
}


function MoveButtons({ label, index, count, busy, onMove }: { label: string; index: number; count: number; busy: boolean; onMove: (to: number) => void }) {
  return (
    <>
      <button type="button" className="btn btn-small btn-secondary" aria-label={`Move ${label} up`} disabled={busy || index === 0} onClick={() => onMove(index)}>
        ↑
      </button>
      <button
        type="button"
        className="btn btn-small btn-secondary"
        aria-label={`Move ${label} down`}
        disabled={busy || index === count - 1}
        onClick={() => onMove(index + 2)}
      >
        ↓
      </button>
    </>
  );
}

// ---------------------------------------------------------------------------------------------

function EngagementOverrides({ ctx, option }: { ctx: EditorContext; option: SurveyOption }) {
  type Row = { included: boolean; isDisqualified: boolean; weight: string };
  const [rows, setRows] = useState<Record<string, Row> | null>(null);
  const [stored, setStored] = useState<Record<string, Row> | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const action = useAction();
  const notify = useNotify();
  useUnsavedValue(rows, stored);

  const load = useCallback(() => {
    setLoadError(null);
    ctx.api.engagementOptions({ optionId: option.id }).then(
      (result) => {
        const loaded = Object.fromEntries(result.items.map((e) => [e.engagementId, { included: true, isDisqualified: e.isDisqualified, weight: String(e.weight) }]));
        setRows(loaded);
        setStored(loaded);
      },
      () => setLoadError('Could not load option engagements'),
    );
  }, [ctx.api, option.id]);
  useEffect(load, [load]);

  const row = (id: string): Row => rows?.[id] ?? { included: false, isDisqualified: false, weight: '0' };
  const set = (id: string, patch: Partial<Row>) => setRows((previous) => ({ ...previous, [id]: { ...row(id), ...patch } }));

  const save = () =>
    action.run(async () => {
      const settings = Object.entries(rows ?? {})
        .filter(([, r]) => r.included)
        .map(([engagementId, r]) => ({ engagementId: Number(engagementId), isDisqualified: r.isDisqualified, weight: Number(r.weight) }));
      await ctx.api.replaceEngagementOptions(option.id, settings);
      setStored(rows);
      notify('success', `Engagements of ${option.label} saved.`);
    }, UPDATE_OPTION_ENGAGEMENTS_FAILED);

  return (
    <fieldset className="engagement-overrides" aria-label={`Engagements of ${option.label}`} aria-busy={action.busy || rows === null || undefined}>
      <legend>Per-engagement settings</legend>
      <FormErrors message={action.error ?? loadError ?? ctx.engagements.error} />
      {ctx.engagements.loading || rows === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <table className="overrides-table">
          <thead>
            <tr>
              <th scope="col">Engagement</th>
              <th scope="col">Override</th>
              <th scope="col">Disqualifies</th>
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {ctx.engagements.options.map((engagement) => {
              const r = row(engagement.value);
              return (
                <tr key={engagement.value}>
                  <th scope="row">{engagement.label}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Override for ${engagement.label}`}
                      checked={r.included}
                      onChange={(e) => set(engagement.value, { included: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Disqualifies for ${engagement.label}`}
                      checked={r.isDisqualified}
                      disabled={!r.included}
                      onChange={(e) => set(engagement.value, { isDisqualified: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      className="input input-narrow"
                      type="number"
                      step={1}
                      aria-label={`Weight for ${engagement.label}`}
                      value={r.weight}
                      disabled={!r.included}
                      onChange={(e) => set(engagement.value, { weight: e.target.value })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" className="btn btn-small btn-primary" disabled={action.busy || rows === null} aria-busy={action.busy || undefined} onClick={save}>
        Save Engagements
      </button>
    </fieldset>
  );
}

const optionValues = (option: SurveyOption) => ({
  label: option.label,
  value: option.value,
  isDisqualified: option.isDisqualified,
  transition: option.transitionTo === 'page' ? `page:${option.transitionTarget}` : (option.transitionTo ?? ''),
  translations: option.translations,
});

function OptionEditor({ ctx, page, option, index, count }: { ctx: EditorContext; page: SurveyPage; option: SurveyOption; index: number; count: number }) {
  const [values, setValues] = useState(() => optionValues(option));
  useUnsavedValue(values, optionValues(option));
  const [showEngagements, setShowEngagements] = useState(false);
  const action = useAction();
  const remove = useDeleteWithConfirm(ctx.api.removeOption, 'Option');
  const set = (patch: Partial<typeof values>) => setValues((previous) => ({ ...previous, ...patch }));

  const targets: SelectOption[] = [
    { value: 'end', label: 'End of survey' },
    ...transitionTargets(pageSummaries(ctx.pages), page.id).map((p) => ({ value: `page:${p.identity}`, label: `Page: ${p.title}` })),
  ];
  if (values.transition && !targets.some((t) => t.value === values.transition)) {
    targets.push({ value: values.transition, label: `${ctx.pages.find((p) => `page:${p.id}` === values.transition)?.title ?? 'Unknown page'} (not allowed)` });
  }

  const save = () =>
    action.run(async () => {
      const [to, target] = values.transition.startsWith('page:') ? ['page' as const, Number(values.transition.slice(5))] : [values.transition === 'end' ? ('end' as const) : null, null];
      await ctx.api.updateOption(option.id, {
        label: values.label,
        value: values.value,
        isDisqualified: values.isDisqualified,
        transitionTo: to,
        transitionTarget: target,
        translations: values.translations,
      });
      await ctx.refresh();
    }, SAVE_FAILED);
  const move = (to: number) =>
    action.run(async () => {
      await ctx.api.updateOption(option.id, { displayOrder: to });
      await ctx.refresh();
    }, SAVE_FAILED);

  const name = `option-${option.id}`;
  return (
    <li className="option-editor" aria-label={`Option ${option.label}`} aria-busy={action.busy || undefined}>
      <FormErrors message={action.error} />
      <div className="form-grid">
        <TextField label="Label" name={`${name}-label`} required maxLength={500} value={values.label} onChange={(label) => set({ label })} />
        <TextField label="Value" name={`${name}-value`} required maxLength={200} value={values.value} onChange={(value) => set({ value })} />
        <Select label="Transition" name={`${name}-transition`} emptyLabel="Next page" options={targets} value={values.transition} onChange={(transition) => set({ transition })} />
        <Checkbox label="Disqualify" name={`${name}-disqualify`} checked={values.isDisqualified} onChange={(isDisqualified) => set({ isDisqualified })} />
      </div>
      {ctx.languages.map((language) => (
        <TextField
          key={language.isoCode}
          label={`Label (${languageLabel(language)})`}
          name={`${name}-label-${language.isoCode}`}
          maxLength={500}
          value={values.translations[language.isoCode] ?? ''}
          onChange={(text) => set({ translations: { ...values.translations, [language.isoCode]: text } })}
        />
      ))}
      <div className="editor-actions">
        <button type="button" className="btn btn-small btn-primary" disabled={action.busy} aria-busy={action.busy || undefined} onClick={save}>
          Save Option
        </button>
        <MoveButtons label={`option ${option.label}`} index={index} count={count} busy={action.busy} onMove={move} />
        <button type="button" className="btn btn-small btn-secondary" aria-expanded={showEngagements} onClick={() => setShowEngagements((s) => !s)}>
          Engagements
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={action.busy}
          onClick={async () => {
            if (await remove(option.id)) await ctx.refresh().catch(() => undefined);
          }}
        >
          Delete Option
        </button>
      </div>
      {showEngagements && <EngagementOverrides ctx={ctx} option={option} />}
    </li>
  );
}

const questionValues = (question: SurveyQuestion) => ({
  questionType: question.questionType,
  title: question.title,
  helperText: question.helperText ?? '',
  questionCategoryId: question.questionCategoryId ?? '',
  tagIds: question.tags.map((t) => t.id),
  translations: question.translations,
});

function QuestionEditor({ ctx, page, question, index, count }: { ctx: EditorContext; page: SurveyPage; question: SurveyQuestion; index: number; count: number }) {
  const [values, setValues] = useState(() => questionValues(question));
  useUnsavedValue(values, questionValues(question));
  const action = useAction();
  const addOption = useAction();
  const remove = useDeleteWithConfirm(ctx.api.removeQuestion, 'Question');
  const set = (patch: Partial<typeof values>) => setValues((previous) => ({ ...previous, ...patch }));
  const translate = (code: string, key: 'title' | 'helperText', text: string) =>
    set({ translations: { ...values.translations, [code]: { ...values.translations[code], [key]: text } } });

  const save = () =>
    action.run(async () => {
      await ctx.api.updateQuestion(question.id, {
        questionType: values.questionType,
        title: values.title,
        helperText: values.helperText || null,
        questionCategoryId: values.questionCategoryId ? Number(values.questionCategoryId) : null,
        tagIds: values.tagIds.map(Number),
        translations: values.translations,
      });
      await ctx.refresh();
    }, SAVE_FAILED);
  const move = (to: number) =>
    action.run(async () => {
      await ctx.api.updateQuestion(question.id, { displayOrder: to });
      await ctx.refresh();
    }, SAVE_FAILED);
  const add = () =>
    addOption.run(async () => {
      await ctx.api.addOption(question.id);
      await ctx.refresh();
    }, ADD_OPTION_FAILED);

  const name = `question-${question.id}`;
  const withOptions = isChoiceType(question.questionType) || question.options.length > 0;
  return (
    <li className="question-editor panel" aria-label={`Question ${index + 1}`} aria-busy={action.busy || undefined}>
      <FormErrors message={action.error} />
      <div className="form-grid">
        <Select
          label="Type"
          name={`${name}-type`}
          options={FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          value={values.questionType}
          onChange={(type) => set({ questionType: type as FieldType })}
        />
        <TextField label="Question title" name={`${name}-title`} required maxLength={500} value={values.title} onChange={(title) => set({ title })} />
        <Select
          label="Category"
          name={`${name}-category`}
          emptyLabel="No category"
          options={ctx.categories.options}
          loading={ctx.categories.loading}
          error={ctx.categories.error ?? undefined}
          value={values.questionCategoryId}
          onChange={(questionCategoryId) => set({ questionCategoryId })}
        />
      </div>
      <TextArea label="Helper text" name={`${name}-helper`} rows={2} maxLength={1000} value={values.helperText} onChange={(helperText) => set({ helperText })} />
      <MultiCheckList label="Tags" name={`${name}-tags`} options={ctx.tags.options} loading={ctx.tags.loading} value={values.tagIds} onChange={(tagIds) => set({ tagIds })} />
      {ctx.languages.map((language) => (
        <div key={language.isoCode} className="form-grid">
          <TextField
            label={`Title (${languageLabel(language)})`}
            name={`${name}-title-${language.isoCode}`}
            maxLength={500}
            value={values.translations[language.isoCode]?.title ?? ''}
            onChange={(text) => translate(language.isoCode, 'title', text)}
          />
          <TextField
            label={`Helper text (${languageLabel(language)})`}
            name={`${name}-helper-${language.isoCode}`}
            maxLength={1000}
            value={values.translations[language.isoCode]?.helperText ?? ''}
            onChange={(text) => translate(language.isoCode, 'helperText', text)}
          />
        </div>
      ))}
      <div className="editor-actions">
        <button type="button" className="btn btn-small btn-primary" disabled={action.busy} aria-busy={action.busy || undefined} onClick={save}>
          Save Question
        </button>
        <MoveButtons label={`question ${index + 1}`} index={index} count={count} busy={action.busy} onMove={move} />
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={action.busy}
          onClick={async () => {
            if (await remove(question.id)) await ctx.refresh().catch(() => undefined);
          }}
        >
          Delete Question
        </button>
      </div>
      {withOptions && (
        <section className="options-editor" aria-label={`Options of question ${index + 1}`}>
          <h3 className="section-title">Options</h3>
          <ol className="option-list">
            {question.options.map((option, i) => (
              <OptionEditor key={option.id} ctx={ctx} page={page} option={option} index={i} count={question.options.length} />
            ))}
          </ol>
          <FormErrors message={addOption.error} />
          <button type="button" className="btn btn-small btn-secondary" disabled={addOption.busy} aria-busy={addOption.busy || undefined} onClick={add}>
            Add Option
          </button>
        </section>
      )}
    </li>
  );
}

function PageEditor({ ctx, page }: { ctx: EditorContext; page: SurveyPage }) {
  const [title, setTitle] = useState(page.title);
  useUnsavedValue(title, page.title);
  const rename = useAction();
  const addQuestion = useAction();

  const saveTitle = () =>
    rename.run(async () => {
      await ctx.api.updatePage(page.id, { title });
      await ctx.refresh();
    }, SAVE_FAILED);
  const add = () =>
    addQuestion.run(async () => {
      await ctx.api.addQuestion(page.id);
      await ctx.refresh();
    }, ADD_QUESTION_FAILED);

  return (
    <section className="page-editor" aria-label={`Page ${page.title}`}>
      <div className="panel page-title-editor" aria-busy={rename.busy || undefined}>
        <FormErrors message={rename.error} />
        <TextField label="Page title" name={`page-${page.id}-title`} required maxLength={255} value={title} onChange={setTitle} />
        <button type="button" className="btn btn-small btn-primary" disabled={rename.busy} aria-busy={rename.busy || undefined} onClick={saveTitle}>
          Save Page Title
        </button>
      </div>
      {page.questions.length === 0 && <p className="muted">No questions on this page yet.</p>}
      <ol className="question-list">
        {page.questions.map((question, i) => (
          <QuestionEditor key={question.id} ctx={ctx} page={page} question={question} index={i} count={page.questions.length} />
        ))}
      </ol>
      <FormErrors message={addQuestion.error} />
      <button type="button" className="btn btn-secondary" disabled={addQuestion.busy} aria-busy={addQuestion.busy || undefined} onClick={add}>
        Add Question
      </button>
    </section>
  );
}

function PagesPanel({ ctx, selected, onSelect }: { ctx: EditorContext; selected: string; onSelect: (id: string) => void }) {
  const addPage = useAction();
  const move = useAction();
  const remove = useDeleteWithConfirm(ctx.api.removePage, 'Page');

  const add = () =>
    addPage.run(async () => {
      const page = await ctx.api.addPage(ctx.survey.id);
      await ctx.refresh();
      onSelect(page.id);
    }, ADD_PAGE_FAILED);
  const reorder = (id: string, to: number) =>
    move.run(async () => {
      await ctx.api.updatePage(id, { displayOrder: to });
      await ctx.refresh();
    }, SAVE_FAILED);

  return (
    <nav className="panel pages-panel" aria-label="Pages" aria-busy={addPage.busy || move.busy || undefined}>
      <h2 className="section-title">{L.pages}</h2>
      <FormErrors message={addPage.error ?? move.error} />
      <ol className="builder-page-list">
        {ctx.pages.map((page, i) => (
          <li key={page.id} className={page.id === selected ? 'selected' : undefined}>
            <button type="button" className="btn-link" aria-pressed={page.id === selected} onClick={() => onSelect(page.id)}>
              {page.title}
            </button>
            <span className="page-actions">
              <MoveButtons label={`page ${page.title}`} index={i} count={ctx.pages.length} busy={move.busy} onMove={(to) => reorder(page.id, to)} />
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Delete page ${page.title}`}
                onClick={async () => {
                  if (await remove(page.id)) await ctx.refresh().catch(() => undefined);
                }}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-secondary" disabled={addPage.busy} aria-busy={addPage.busy || undefined} onClick={add}>
        Add Page
      </button>
    </nav>
  );
}

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
