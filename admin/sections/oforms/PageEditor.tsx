/**
 * The selected page: its title (saved when it loses focus) and its questions. In a translation
 * language the title edits that language's translation, as a question's title does.
 */
import { useState } from 'react';
import type { OFormPage } from '@core/api/oforms';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import type { EditorContext } from './context';
import { QuestionEditor } from './QuestionEditor';
import { useAction } from '../../hooks/useAction';
import { useAutosave } from '../../components/unsaved/useAutosave';
import { ADD_QUESTION_FAILED, SAVE_FAILED } from './values';

export function PageEditor({ ctx, page }: { ctx: EditorContext; page: OFormPage }) {
  const lang = ctx.language;
  // Remounted per language (Edit keys it so): the text is the default title or lang's translation.
  const stored = lang ? (page.translations[lang]?.title ?? '') : page.title;
  const [title, setTitle] = useState(stored);
  const rename = useAutosave(
    title,
    stored,
    async (next) => {
      await ctx.api.updatePage(page.id, lang ? { translations: { ...page.translations, [lang]: { ...page.translations[lang], title: next } } } : { title: next });
      await ctx.refresh();
    },
    SAVE_FAILED,
  );
  const addQuestion = useAction();

  const add = () =>
    addQuestion.run(async () => {
      await ctx.api.addField(page.id);
      await ctx.refresh();
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
      <ol className="question-list">
        {page.fields.map((field, i) => (
          <QuestionEditor key={`${field.id}:${ctx.language ?? ''}`} ctx={ctx} field={field} index={i} count={page.fields.length} pageIdentity={page.identity} />
        ))}
      </ol>
      <FormErrors message={addQuestion.error} />
      {ctx.language === null && (
        <button type="button" className="btn btn-secondary" disabled={addQuestion.busy} aria-busy={addQuestion.busy || undefined} onClick={add}>
          Add Question
        </button>
      )}
    </section>
  );
}
