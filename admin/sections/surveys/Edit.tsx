/**
 * VersionedSurveyEdit: the versioned-survey builder. Every change is one API call and saves as soon
 * as it is made (texts when they lose focus), so leaving the screen loses nothing; the version
 * is read again after structural changes, so what is shown is what the server kept. An
 * approved version is shown read-only (the server refuses any change to it with 409).
 */
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useSearchUpdate } from '../../routing/searchUpdate';
import { lookupsApi } from '@core/api/lookups';
import { surveysApi, type SurveyDetail } from '@core/api/surveys';
import { LOOKUP_TYPES } from '@core/model/lookup';
import { APPROVED_IMMUTABLE, type Question } from '@core/model/surveyDoc';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { Loading } from '../../components/Loading';
import { RecordLoader } from '../../components/RecordLoader';
import { useActiveLanguages } from '../../hooks/useLanguages';
import { useOptions } from '../../hooks/useOptions';
import { pathTo } from '../../routing/routes';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import type { EditorContext } from './context';
import { LanguagesPanel } from './LanguagesPanel';
import { MessagesEditor } from './MessagesEditor';
import { TranslationsGrid } from './TranslationsGrid';
import { PageEditor } from './PageEditor';
import { PagesPanel } from './PagesPanel';
import { DragArea } from './Sortable';
import { useAutosave } from '../../components/unsaved/useAutosave';
import { VERSIONED_SURVEY_LABELS as L, SAVE_FAILED, isFrozen } from './values';
import { useSurveyDetail } from './useSurveyDetail';
import { VersionBar } from './VersionBar';
import { useBuilderHistory } from './history';
import './surveys.css';

const SurveyFlow = lazy(() => import('./SurveyFlow'));
const BuilderPreview = lazy(() => import('./BuilderPreview'));

/** The builder's views: the questions of one page (with the preview beside), the logic, the messages, the translations. */
const TABS = [
  { id: 'questions', label: 'Questions' },
  { id: 'logic', label: 'Logic' },
  { id: 'messages', label: 'Messages' },
  { id: 'translations', label: 'Translations' },
] as const;
type Tab = (typeof TABS)[number]['id'];

function TitleEditor({ ctx }: { ctx: EditorContext }) {
  const { form } = ctx.detail;
  const [title, setTitle] = useState(form.title);
  const action = useAutosave(
    title,
    form.title,
    async (next) => {
      await ctx.api.update(form.id, { title: next });
      await ctx.refresh();
    },
    SAVE_FAILED,
  );
  return (
    <div className="panel" onBlur={() => void action.save()} aria-busy={action.busy || undefined}>
      <FormErrors message={action.error} />
      <div className="form-grid">
        <TextField label={L.title} name="survey-title" required maxLength={255} value={title} disabled={ctx.frozen} onChange={setTitle} />
      </div>
      <p className="muted">
        {L.engagementName}: {form.engagementName} · {L.sponsorName}: {form.sponsorName}
      </p>
    </div>
  );
}

function SurveyBuilder({ initial }: { initial: SurveyDetail }) {
  const api = useApi(surveysApi);
  const lookups = useApi(lookupsApi);
  const [detail, setDetail] = useState(initial);
  const [selected, setSelected] = useState(initial.pages[0]?.id ?? '');
  const [language, setLanguage] = useState<string | null>(null);
  const [params, changeSearch] = useSearchUpdate();
  const tab: Tab = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'questions';
  const showTab = (next: Tab) =>
    changeSearch(
      (search) => {
        if (next === 'questions') search.delete('tab');
        else search.set('tab', next);
        return search;
      },
      { replace: true },
    );
  // What staff have typed and not yet saved, per question: the preview shows it as they type.
  const [drafts, setDrafts] = useState<Record<string, Partial<Question>>>({});
  const draft = useCallback((id: string, values: Partial<Question>) => setDrafts((d) => (d[id] === values ? d : { ...d, [id]: values })), []);
  const toOptions = (items: { id: string; name: string }[]) => items.map((i) => ({ value: i.id, label: i.name }));
  const categories = useOptions(() => api.fieldCategories().then(toOptions), [api], 'Could not load question categories');
  const activeLanguages = useActiveLanguages().all;
  const defaultIso = activeLanguages.find((l) => l.isDefault)?.isoCode ?? 'en';
  const tags = useOptions(() => lookups.all(LOOKUP_TYPES.tags).then(toOptions), [lookups], 'Could not load tags');

  const refresh = useCallback(async () => {
    setDetail(await api.detail(initial.form.id));
  }, [api, initial.form.id]);
  const replaceField = useCallback((field: Question) => {
    setDetail((d) => ({ ...d, pages: d.pages.map((p) => ({ ...p, fields: p.fields.map((f) => (f.id === field.id ? { ...f, ...field } : f)) })) }));
  }, []);

  const frozen = isFrozen(detail.form);
  useTopBar({
    objectTitle: detail.form.title,
    buttons: [{ label: 'Done', to: pathTo('VersionedSurveyView', { id: detail.form.id }) }],
  });

  const history = useBuilderHistory(refresh);
  const ctx: EditorContext = { api, detail, frozen, language, refresh, replaceField, draft, history, categories, tags };
  // Ctrl+Z / Ctrl+Shift+Z (⌘ on a Mac) undo and redo the builder's edits, except where a text field has its own undo.
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (frozen || !(e.ctrlKey || e.metaKey) || e.altKey) return;
    const target = e.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) void history.undo();
    else if ((key === 'z' && e.shiftKey) || key === 'y') void history.redo();
    else return;
    e.preventDefault();
  };
  const page = detail.pages.find((p) => p.id === selected) ?? detail.pages[0];
  const previewed = useMemo(
    () => ({ ...detail, pages: detail.pages.map((p) => ({ ...p, fields: p.fields.map((f) => (drafts[f.id] ? { ...f, ...drafts[f.id] } : f)) })) }),
    [detail, drafts],
  );

  return (
    <div className="survey-editor" onKeyDown={onKeyDown}>
      <VersionBar ctx={ctx} />
      {frozen && (
        <p className="notice" role="note">
          {APPROVED_IMMUTABLE}
        </p>
      )}
      <div className="builder-head">
        <TitleEditor key={detail.form.modified} ctx={ctx} />
        <LanguagesPanel ctx={ctx} language={language} onLanguage={setLanguage} defaultIso={defaultIso} known={activeLanguages} />
      </div>
      <div className="builder-tabs-row">
        <div role="tablist" aria-label="Builder views" className="builder-tabs">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`builder-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls="builder-tabpanel"
              className="builder-tab"
              onClick={() => showTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        {!frozen && (
          <div className="builder-history" role="group" aria-label="Undo and redo" aria-busy={history.busy || undefined}>
            <button
              type="button"
              className="btn btn-small btn-secondary"
              disabled={!history.canUndo || history.busy}
              title={history.canUndo ? `Undo ${history.canUndo} (Ctrl+Z)` : 'Nothing to undo'}
              onClick={() => void history.undo()}
            >
              Undo
            </button>
            <button
              type="button"
              className="btn btn-small btn-secondary"
              disabled={!history.canRedo || history.busy}
              title={history.canRedo ? `Redo ${history.canRedo} (Ctrl+Shift+Z)` : 'Nothing to redo'}
              onClick={() => void history.redo()}
            >
              Redo
            </button>
          </div>
        )}
      </div>
      <div role="tabpanel" id="builder-tabpanel" aria-labelledby={`builder-tab-${tab}`}>
        {tab === 'questions' && (
          <div className="survey-editor-body builder-columns">
            <DragArea>
              <PagesPanel ctx={ctx} selected={page?.id ?? ''} onSelect={setSelected} />
              <fieldset className="survey-editor-fieldset" disabled={frozen} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
                {page ? (
                  <PageEditor key={`${page.id}:${language ?? ''}:${history.revision}`} ctx={ctx} page={page} />
                ) : (
                  <p className="muted">This survey has no pages. Add one.</p>
                )}
              </fieldset>
            </DragArea>
            <Suspense fallback={<Loading />}>{page && <BuilderPreview detail={previewed} pageId={page.id} language={language ?? defaultIso} />}</Suspense>
          </div>
        )}
        {tab === 'messages' && <MessagesEditor key={language ?? ''} ctx={ctx} language={language ?? defaultIso} />}
        {tab === 'translations' && <TranslationsGrid ctx={ctx} defaultIso={defaultIso} />}
        {tab === 'logic' && (
          <Suspense fallback={<Loading />}>
            <SurveyFlow pages={detail.pages} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

export default function VersionedSurveyEdit() {
  return (
    <RecordLoader state={useSurveyDetail()} resource="survey">
      {(detail) => <SurveyBuilder key={detail.form.id} initial={detail} />}
    </RecordLoader>
  );
}
