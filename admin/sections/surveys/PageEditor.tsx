/**
 * The selected page: its title (saved when it loses focus) and its questions. In a translation
 * language the title edits that language's translation, as a question's title does.
 */
import { useEffect, useRef, useState } from 'react';
import { BusyButton } from '../../components/form/BusyButton';
import type { PageWithQuestions } from '@core/api/surveys';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import type { EditorContext } from './context';
import { QuestionEditor } from './QuestionEditor';
import { useAction } from '../../hooks/useAction';
import { useAutosave } from '../../components/unsaved/useAutosave';
import { ADD_QUESTION_FAILED, SAVE_FAILED } from './values';
import { duplicateValues } from './duplicate';
import { SortableList } from './Sortable';
import type { Question } from '@core/model/surveyDoc';
import type { FieldValues } from '@core/api/surveys';
import './surveys.css';

export function PageEditor({ ctx, page }: { ctx: EditorContext; page: PageWithQuestions }) {
  const lang = ctx.language;
  // Remounted per language (Edit keys it so): the text is the default title or lang's translation.
  const stored = lang ? (page.translations[lang]?.title ?? '') : page.title;
  const [title, setTitle] = useState(stored);
  const rename = useAutosave(
    title,
    stored,
    async (next) => {
      const body = (text: string) => (lang ? { translations: { ...page.translations, [lang]: { ...page.translations[lang], title: text } } } : { title: text });
      await ctx.api.updatePage(page.id, body(next));
      const { history, api } = ctx;
      history?.record({
        label: 'edit of the page title',
        undo: () => api.updatePage(history.resolvePage(page.id), body(stored)).then(() => undefined),
        redo: () => api.updatePage(history.resolvePage(page.id), body(next)).then(() => undefined),
      });
      await ctx.refresh();
    },
    SAVE_FAILED,
  );
  const addQuestion = useAction();
  // One question open at a time: the first when the page opens, then the one staff pick or add.
  const [openId, setOpenId] = useState<string | null>(page.fields[0]?.id ?? null);
  const list = useRef<HTMLOListElement>(null);
  const scrollTo = useRef<string | null>(null);
  useEffect(() => {
    if (!scrollTo.current || !page.fields.some((f) => f.id === scrollTo.current)) return;
    const card = list.current?.querySelector<HTMLElement>(`[data-question-id="${scrollTo.current}"]`);
    scrollTo.current = null;
    card?.scrollIntoView?.({ block: 'nearest' });
    card?.querySelector<HTMLElement>('select, input')?.focus({ preventScroll: true });
  });
  const openQuestion = (id: string) => {
    scrollTo.current = id;
    setOpenId(id);
  };

  const add = () =>
    addQuestion.run(async () => {
      const field = await ctx.api.addField(page.id);
      recordAdded(field.id, 'new question', {});
      await ctx.refresh();
      openQuestion(field.id);
    }, ADD_QUESTION_FAILED);
  /** A question added (new or a copy): undone by deleting it, redone by adding it again as it was. */
  const recordAdded = (id: string, label: string, values: Partial<FieldValues>) => {
    const { history, api } = ctx;
    history?.record({
      label,
      undo: () => api.removeField(history.resolve(id)),
      redo: async () => {
        const again = await api.addField(history.resolvePage(page.id));
        if (Object.keys(values).length) await api.updateField(again.id, values);
        history.alias(history.resolve(id), again.id);
      },
    });
  };
  const move = (id: string, to: number) =>
    addQuestion.run(async () => {
      const from = page.fields.findIndex((f) => f.id === id);
      await ctx.api.updateField(id, { displayOrder: to + 1 });
      const { history, api } = ctx;
      history?.record({
        label: `move of question ${from + 1}`,
        undo: () => api.updateField(history.resolve(id), { displayOrder: from + 1 }).then(() => undefined),
        redo: () => api.updateField(history.resolve(id), { displayOrder: to + 1 }).then(() => undefined),
      });
      await ctx.refresh();
    }, SAVE_FAILED);
  // A question moves to another page as itself: the same texts, options and rules there (last),
  // gone here. It has a new id there; the history follows it, and undo puts it back in its place.
  const moveToPage = (field: Question, pageId: string) =>
    addQuestion.run(async () => {
      const { history, api } = ctx;
      const relocate = async (to: string, values: Partial<FieldValues>) => {
        const from = history ? history.resolve(field.id) : field.id;
        const copy = await api.addField(to);
        await api.updateField(copy.id, values);
        await api.removeField(from);
        history?.alias(from, copy.id);
      };
      const from = page.fields.findIndex((f) => f.id === field.id);
      await relocate(pageId, duplicateValues(field));
      history?.record({
        label: `move of question ${from + 1} to another page`,
        undo: () => relocate(history.resolvePage(page.id), duplicateValues(field, from + 1)),
        redo: () => relocate(history.resolvePage(pageId), duplicateValues(field)),
      });
      await ctx.refresh();
    }, SAVE_FAILED);
  const duplicate = (index: number) =>
    addQuestion.run(async () => {
      const source = page.fields[index]!;
      const copy = await ctx.api.addField(page.id);
      await ctx.api.updateField(copy.id, duplicateValues(source, index + 2));
      recordAdded(copy.id, 'copy of a question', duplicateValues(source, index + 2));
      await ctx.refresh();
      openQuestion(copy.id);
    }, ADD_QUESTION_FAILED);

  return (
    <section className="page-editor" aria-label={`Page ${page.title}`}>
      <div className="panel page-title-editor" aria-busy={rename.busy || undefined} onBlur={() => void rename.save()}>
        <FormErrors message={rename.error} />
        <TextField
          label={lang ? `Page title (${lang})` : 'Page title'}
          name={lang ? `page-${page.id}-title-${lang}` : `page-${page.id}-title`}
          hint={lang ? page.title : undefined}
          required={!lang}
          maxLength={255}
          value={title}
          onChange={setTitle}
        />
      </div>
      {page.fields.length === 0 && <p className="muted">No questions on this page yet.</p>}
      <SortableList
        shared
        ids={page.fields.map((f) => f.id)}
        name={(id) => `question ${page.fields.findIndex((f) => f.id === id) + 1}`}
        disabled={ctx.frozen || lang !== null}
        onMove={(id, _, to) => void move(id, to)}
        onMoveTo={(id, pageId) => {
          const field = page.fields.find((f) => f.id === id);
          if (field && pageId !== page.id) void moveToPage(field, pageId);
        }}
      >
        <ol className="question-list" ref={list}>
          {page.fields.map((field, i) => (
            <QuestionEditor
              key={`${field.id}:${ctx.language ?? ''}:${ctx.history?.revision ?? 0}`}
              ctx={ctx}
              field={field}
              index={i}
              count={page.fields.length}
              pageIdentity={page.identity}
              open={openId === field.id}
              onToggle={() => setOpenId(openId === field.id ? null : field.id)}
              onDuplicate={() => void duplicate(i)}
              otherPages={ctx.detail.pages.filter((p) => p.id !== page.id).map((p) => ({ id: p.id, title: p.title }))}
              onMoveToPage={(to) => void moveToPage(field, to)}
            />
          ))}
        </ol>
      </SortableList>
      <FormErrors message={addQuestion.error} />
      {ctx.language === null && (
        // Kept on screen below a long open question: adding the next one costs no scroll.
        <BusyButton className="btn btn-secondary add-question" busy={addQuestion.busy} onClick={add}>
          Add Question
        </BusyButton>
      )}
    </section>
  );
}
