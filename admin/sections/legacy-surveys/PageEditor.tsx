/** The selected page: its title and its questions. */
import { BusyButton } from '../../components/form/BusyButton';
import type { SurveyPage } from '@core/model/legacySurvey';
import { FormErrors } from '../../components/form/FormErrors';
import { TextField } from '../../components/form/TextField';
import { useDraft } from '../../components/unsaved/useDraft';
import { useAction } from '../../hooks/useAction';
import { changeSurvey, type EditorContext } from './editorContext';
import { QuestionEditor } from './QuestionEditor';
import { ADD_QUESTION_FAILED, SAVE_FAILED } from './values';

export function PageEditor({ ctx, page }: { ctx: EditorContext; page: SurveyPage }) {
  const [title, setTitle] = useDraft(page.title);
  const rename = useAction();
  const addQuestion = useAction();

  const saveTitle = () => changeSurvey(ctx, rename.run, SAVE_FAILED)(() => ctx.api.updatePage(page.id, { title }));
  const add = () => changeSurvey(ctx, addQuestion.run, ADD_QUESTION_FAILED)(() => ctx.api.addQuestion(page.id));

  return (
    <section className="page-editor" aria-label={`Page ${page.title}`}>
      <div className="panel page-title-editor" aria-busy={rename.busy || undefined}>
        <FormErrors message={rename.error} />
        <TextField label="Page title" name={`page-${page.id}-title`} required maxLength={255} value={title} onChange={setTitle} />
        <BusyButton className="btn btn-small btn-primary" busy={rename.busy} onClick={saveTitle}>
          Save Page Title
        </BusyButton>
      </div>
      {page.questions.length === 0 && <p className="muted">No questions on this page yet.</p>}
      <ol className="question-list">
        {page.questions.map((question, i) => (
          <QuestionEditor key={question.id} ctx={ctx} page={page} question={question} index={i} count={page.questions.length} />
        ))}
      </ol>
      <FormErrors message={addQuestion.error} />
      <BusyButton className="btn btn-secondary" busy={addQuestion.busy} onClick={add}>
        Add Question
      </BusyButton>
    </section>
  );
}
