/**
 * One question of the selected page: type, title, helper text, required, category, tags, the
 * type's limits and, for choice questions, the options with their transition and disqualify
 * controls. Texts save when they lose focus, choices as soon as they change, each save in
 * order; in a translation language the texts edit that language's translations.
 */
import { useEffect, useRef, useState } from 'react';
import { arrayMove } from '@dnd-kit/sortable';
import { useUnsavedChanges } from '../../components/unsaved/UnsavedChanges';
import { configurationFor, isChoiceType, limitKeys, type FieldConfiguration, type FieldType, type OptionConfig } from '@core/model/survey';
import type { Question } from '@core/model/surveyDoc';
import { transitionTargets, withNewOption, yesNoOptions } from '@core/survey/authoring';
import { questionRules } from '@core/survey/rulesInWords';
import type { FieldValues } from '@core/api/surveys';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { Select, type SelectOption } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { MoveButtons } from '../../components/MoveButtons';
import { QuestionCategorySelect, QuestionTypeSelect } from '../../components/questionSelects';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import type { EditorContext } from './context';
import { DragHandle, SortableList, useSortableItem } from './Sortable';
import { TranslatedField } from './TranslatedField';
import { duplicateValues } from './duplicate';
import { fieldValuesOf } from './duplicate';
import { ADD_OPTION_FAILED, SAVE_FAILED, TYPE_LABELS, failureText } from './values';
import './surveys.css';

type Values = Omit<FieldValues, 'displayOrder'>;

const LIMIT_LABELS: Partial<Record<keyof FieldConfiguration, string>> = {
  minLength: 'Minimum length',
  maxLength: 'Maximum length',
  minValue: 'Minimum value',
  maxValue: 'Maximum value',
  minDate: 'Earliest date',
  maxDate: 'Latest date',
  minAge: 'Minimum age',
  maxAge: 'Maximum age',
};
const DATE_LIMITS = new Set<keyof FieldConfiguration>(['minDate', 'maxDate']);

/** The transition select's value: '' (next page), 'end', 'page:<identity>' or 'survey:<identity>'. */
const transitionValue = (t: OptionConfig['transition']) => (t ? (t.to === 'end' ? 'end' : `${t.to}:${t.identity}`) : '');
function parseTransition(value: string): OptionConfig['transition'] {
  if (value === 'end') return { to: 'end' };
  if (value.startsWith('page:')) return { to: 'page', identity: value.slice(5) };
  if (value.startsWith('survey:')) return { to: 'survey', identity: value.slice(7) };
  return null;
}

/** The transition select's choice that adds a page and jumps to it. */
const NEW_PAGE = 'new-page';

/** A value not yet used by the question's options: option_1, option_2... */
function newOption(options: readonly OptionConfig[]): OptionConfig {
  let n = options.length + 1;
  while (options.some((o) => o.value === `option_${n}`)) n += 1;
  return { label: `Option ${n}`, value: `option_${n}`, translations: {}, isDisqualified: false, transition: null };
}

/** Saves run one after another; a save's answer replaces what is shown only if nothing was typed since. */
function useFieldSaver(ctx: EditorContext, field: Question) {
  const [values, setValues] = useState<Values>(() => fieldValuesOf(field));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const revision = useRef(0);
  const saved = useRef(JSON.stringify(fieldValuesOf(field)));
  const queue = useRef<Promise<void>>(Promise.resolve());

  const change = (next: Values) => {
    revision.current += 1;
    setValues(next);
    return next;
  };
  const save = (next: Values, failure = SAVE_FAILED) => {
    const body = JSON.stringify(next);
    if (body === saved.current) return queue.current;
    const started = revision.current;
    queue.current = queue.current.then(async () => {
      setBusy(true);
      try {
        const before = JSON.parse(saved.current) as Values;
        const updated = await ctx.api.updateField(field.id, next);
        const { history, api } = ctx;
        history?.record({
          label: `edit of question ‘${next.title}’`,
          undo: () => api.updateField(history.resolve(field.id), before).then(() => undefined),
          redo: () => api.updateField(history.resolve(field.id), next).then(() => undefined),
        });
        saved.current = body;
        setError(null);
        ctx.replaceField(updated);
        // The server may add to what was sent ('None of the Above' for a new multiple question).
        if (revision.current === started) {
          const fresh = fieldValuesOf(updated);
          saved.current = JSON.stringify(fresh);
          setValues(fresh);
        }
      } catch (e) {
        setError(failureText(e, failure));
      } finally {
        setBusy(false);
      }
    });
    return queue.current;
  };
  const latest = useRef(values);
  latest.current = values;
  const { draft } = ctx;
  useEffect(() => {
    const { categoryId: _category, tagIds: _tags, ...shown } = values;
    draft?.(field.id, shown);
  }, [draft, field.id, values]);
  // Leaving saves what was typed and not yet saved (the field had no blur), then asks only if that failed.
  useUnsavedChanges(
    () => JSON.stringify(latest.current) !== saved.current,
    () => save(latest.current),
  );
  return { values, change, save, error, busy };
}

function OptionRow({
  ctx,
  option,
  index,
  targets,
  onChange,
  onCommit,
  onRemove,
  fieldId,
}: {
  ctx: EditorContext;
  option: OptionConfig;
  index: number;
  targets: SelectOption[];
  onChange: (option: OptionConfig) => void;
  onCommit: (option?: OptionConfig) => void;
  onRemove: () => void;
  fieldId: string;
}) {
  const name = `option-${fieldId}-${index}`;
  const sortable = useSortableItem(`option-${index}`);
  const lang = ctx.language;
  const options = [...targets];
  const current = transitionValue(option.transition);
  if (current && !options.some((o) => o.value === current)) {
    options.push({ value: current, label: option.transition?.to === 'survey' ? `Survey ${option.transition.identity}` : 'A page no longer offered' });
  }
  return (
    <li className="option-editor" aria-label={`Option ${option.label}`} onBlur={() => onCommit()} ref={sortable.ref} style={sortable.style}>
      {lang === null && <DragHandle label={`Move option ${option.label}`} handle={sortable.handle} />}
      <div className="form-grid">
        <TranslatedField
          label="Label"
          name={`${name}-label`}
          lang={lang}
          required
          maxLength={500}
          text={option.label}
          translation={lang === null ? undefined : option.translations[lang]}
          onText={(label) => onChange({ ...option, label })}
          onTranslation={(text) => lang !== null && onChange({ ...option, translations: { ...option.translations, [lang]: text } })}
        />
        {lang === null && (
          <TextField label="Value" name={`${name}-value`} required maxLength={200} value={option.value} onChange={(value) => onChange({ ...option, value })} />
        )}
        <Select
          label="Transition"
          name={`${name}-transition`}
          emptyLabel="Next page"
          options={options}
          value={current}
          disabled={lang !== null}
          onChange={(value) => {
            if (value !== NEW_PAGE) return onCommit({ ...option, transition: parseTransition(value) });
            // The target page made on the spot: added last, then jumped to.
            void ctx.api
              .addPage(ctx.detail.form.id)
              .then(async (page) => {
                onCommit({ ...option, transition: { to: 'page', identity: page.identity } });
                await ctx.refresh();
              })
              .catch(() => undefined);
          }}
        />
        <Checkbox
          label="Disqualify"
          name={`${name}-disqualify`}
          checked={option.isDisqualified}
          disabled={lang !== null}
          onChange={(isDisqualified) => onCommit({ ...option, isDisqualified })}
        />
      </div>
      {lang === null && (
        <button
          type="button"
          className="btn btn-small btn-danger-outline"
          aria-label={`Delete option ${option.label}`}
          title="Delete option"
          onClick={onRemove}
        >
          <span aria-hidden="true">✕</span>
        </button>
      )}
    </li>
  );
}

/** The closed card's one line: the options, then the rules in words. */
export function questionSummary(values: Pick<Values, 'oFormFieldTypeId' | 'configuration'>, pages: readonly { identity: string; title: string }[]): string {
  const { configuration } = values;
  const parts: string[] = [];
  if (configuration.options.length) parts.push(configuration.options.map((o) => o.label).join(', '));
  parts.push(...questionRules(values.oFormFieldTypeId, configuration, pages));
  if (configuration.required) parts.push('Required');
  return parts.join(' · ');
}

export interface QuestionCardProps {
  ctx: EditorContext;
  field: Question;
  index: number;
  count: number;
  pageIdentity: string;
  /** Only the question being edited shows its controls; the others show one line. */
  open: boolean;
  onToggle: () => void;
  onDuplicate: () => void;
  /** Other pages the question may move to, and moving it there. */
  otherPages: { id: string; title: string }[];
  onMoveToPage: (pageId: string) => void;
}

export function QuestionEditor({ ctx, field, index, count, pageIdentity, open, onToggle, onDuplicate, otherPages, onMoveToPage }: QuestionCardProps) {
  const { values, change, save, error, busy } = useFieldSaver(ctx, field);
  const sortable = useSortableItem(field.id);
  const [actionError, setActionError] = useState<string | null>(null);
  const remove = useDeleteWithConfirm(ctx.api.removeField, 'Question');
  const lang = ctx.language;
  const config = values.configuration;
  const setConfig = (patch: Partial<FieldConfiguration>) => change({ ...values, configuration: { ...config, ...patch } });
  const commit = (next: Values = values) => void save(next);
  const translation = lang ? (config.translations[lang] ?? {}) : null;
  const translate = (key: 'title' | 'helperText', text: string) =>
    lang && setConfig({ translations: { ...config.translations, [lang]: { ...config.translations[lang], [key]: text } } });

  const summaries = ctx.detail.pages.map((p) => ({
    identity: p.identity,
    title: p.title,
    displayOrder: p.displayOrder,
    fieldTypes: p.fields.map((f) => f.oFormFieldTypeId),
  }));
  const targets: SelectOption[] = [
    { value: 'end', label: 'End of survey' },
    ...transitionTargets(summaries, pageIdentity).map((p) => ({ value: `page:${p.identity}`, label: `Page: ${p.title}` })),
    { value: NEW_PAGE, label: 'A new page…' },
  ];

  const setOption = (i: number, option: OptionConfig) => {
    const options = config.options.map((o, j) => (j === i ? option : o));
    return change({ ...values, configuration: { ...config, options } });
  };
  const addOption = () =>
    save(change({ ...values, configuration: { ...config, options: withNewOption(config.options, newOption(config.options)) } }), ADD_OPTION_FAILED);
  const removeOption = (i: number) => commit(change({ ...values, configuration: { ...config, options: config.options.filter((_, j) => j !== i) } }));
  const changeType = (type: FieldType) => {
    const next = configurationFor(type, config);
    // Asked with Yes and No from the start (the server adds them too), so either can disqualify at once.
    if (type === 'yes_no' && next.options.length === 0) next.options = yesNoOptions();
    commit(change({ ...values, oFormFieldTypeId: type, configuration: next }));
  };
  const move = async (to: number) => {
    try {
      setActionError(null);
      await ctx.api.updateField(field.id, { displayOrder: to });
      await ctx.refresh();
    } catch (e) {
      setActionError(failureText(e, SAVE_FAILED));
    }
  };

  const name = `question-${field.id}`;
  const limit = (key: keyof FieldConfiguration) => {
    const raw = config[key];
    const text = raw === undefined || raw === null ? '' : String(raw);
    const date = DATE_LIMITS.has(key);
    return (
      <TextField
        key={key}
        label={LIMIT_LABELS[key] ?? key}
        name={`${name}-${key}`}
        type={date ? 'date' : 'number'}
        value={text}
        disabled={lang !== null}
        onChange={(next) => setConfig({ [key]: next === '' ? undefined : date ? next : Number(next) })}
      />
    );
  };

  const bodyId = `${name}-body`;
  const head = (
    <div className="question-card-head">
      <DragHandle label={`Move question ${index + 1}`} handle={sortable.handle} />
      <button type="button" className="question-card-toggle" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={onToggle}>
        <span className="question-card-title">
          {index + 1}. {(lang && translation?.title) || values.title}
        </span>
        <span className="question-card-type">{TYPE_LABELS[values.oFormFieldTypeId]}</span>
        {!open && <span className="question-card-summary">{questionSummary(values, ctx.detail.pages)}</span>}
      </button>
    </div>
  );
  return (
    <li
      className={open ? 'question-editor question-card panel open' : 'question-editor question-card panel'}
      aria-label={`Question ${index + 1}`}
      data-question-id={field.id}
      aria-busy={busy || undefined}
      ref={sortable.ref}
      style={sortable.style}
    >
      {head}
      <FormErrors message={error ?? actionError} />
      {open && (
        <>
          <div id={bodyId} onBlur={() => commit()}>
            <div className="form-grid">
              <QuestionTypeSelect name={name} value={values.oFormFieldTypeId} disabled={lang !== null} onChange={changeType} />
              <TranslatedField
                label="Question title"
                name={`${name}-title`}
                lang={lang}
                required
                maxLength={500}
                text={values.title}
                translation={translation?.title}
                onText={(title) => change({ ...values, title })}
                onTranslation={(text) => translate('title', text)}
              />
              <QuestionCategorySelect
                name={name}
                categories={ctx.categories}
                value={values.categoryId === null ? '' : String(values.categoryId)}
                disabled={lang !== null}
                onChange={(id) => commit(change({ ...values, categoryId: id ? Number(id) : null }))}
              />
              <Checkbox
                label="Required"
                name={`${name}-required`}
                checked={config.required}
                disabled={lang !== null}
                onChange={(required) => commit(change({ ...values, configuration: { ...config, required } }))}
              />
            </div>
            <TranslatedField
              label="Helper text"
              name={`${name}-helper`}
              lang={lang}
              rows={2}
              maxLength={1000}
              text={config.helperText ?? ''}
              translation={translation?.helperText}
              onText={(text) => setConfig({ helperText: text || null })}
              onTranslation={(text) => translate('helperText', text)}
            />
            {limitKeys(values.oFormFieldTypeId).length > 0 && <div className="form-grid">{limitKeys(values.oFormFieldTypeId).map(limit)}</div>}
          </div>
          {lang === null && (
            <MultiCheckList
              label="Tags"
              name={`${name}-tags`}
              options={ctx.tags.options}
              loading={ctx.tags.loading}
              value={values.tagIds.map(String)}
              onChange={(ids) => commit(change({ ...values, tagIds: ids.map(Number) }))}
            />
          )}
          {(isChoiceType(values.oFormFieldTypeId) || config.options.length > 0) && (
            <section className="options-editor" aria-label={`Options of question ${index + 1}`}>
              <h3 className="section-title">Options</h3>
              <SortableList
                ids={config.options.map((_, i) => `option-${i}`)}
                name={(id) => `option ${config.options[Number(id.slice(7))]?.label ?? ''}`}
                disabled={lang !== null || ctx.frozen}
                onMove={(_, from, to) => commit(change({ ...values, configuration: { ...config, options: arrayMove(config.options, from, to) } }))}
              >
                <ol className="option-list">
                  {config.options.map((option, i) => (
                    <OptionRow
                      key={i}
                      ctx={ctx}
                      option={option}
                      index={i}
                      targets={targets}
                      fieldId={field.id}
                      onChange={(o) => setOption(i, o)}
                      onCommit={(o) => commit(o ? setOption(i, o) : values)}
                      onRemove={() => removeOption(i)}
                    />
                  ))}
                </ol>
              </SortableList>
              {lang === null && (
                <button type="button" className="btn btn-small btn-secondary" onClick={() => void addOption()}>
                  Add Option
                </button>
              )}
            </section>
          )}
          {lang === null && (
            <div className="editor-actions">
              <MoveButtons label={`question ${index + 1}`} index={index} count={count} onMove={move} />
              {otherPages.length > 0 && (
                <select
                  className="input-compact"
                  aria-label={`Move question ${index + 1} to another page`}
                  value=""
                  onChange={(e) => e.target.value && onMoveToPage(e.target.value)}
                >
                  <option value="">Move to page…</option>
                  {otherPages.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.title}
                    </option>
                  ))}
                </select>
              )}
              <button type="button" className="btn btn-small btn-secondary" aria-label={`Duplicate question ${index + 1}`} onClick={onDuplicate}>
                Duplicate
              </button>
              <button
                type="button"
                className="btn btn-small btn-danger"
                onClick={async () => {
                  const { history, api } = ctx;
                  const kept = { ...duplicateValues(field), ...values, displayOrder: index + 1 };
                  if (!(await remove(field.id))) return;
                  history?.record({
                    label: `delete of question ${index + 1}`,
                    undo: async () => {
                      const added = await api.addField(history.resolvePage(field.containerId));
                      await api.updateField(added.id, kept);
                      history.alias(history.resolve(field.id), added.id);
                    },
                    redo: () => api.removeField(history.resolve(field.id)),
                  });
                  await ctx.refresh().catch(() => undefined);
                }}
              >
                Delete Question
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
