/** One question of a page: type, title, category, tags, translations and, for choices, its options. */
import { BusyButton } from '../../components/form/BusyButton';
import type { SurveyPage, SurveyQuestion } from '@core/model/legacySurvey';
import { isChoiceType } from '@core/model/survey';
import { FormErrors } from '../../components/form/FormErrors';
import { MultiCheckList } from '../../components/form/MultiCheckList';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { QuestionCategorySelect, QuestionTypeSelect } from '../../components/questionSelects';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { useDraft } from '../../components/unsaved/useDraft';
import { useAction } from '../../hooks/useAction';
import { languageLabel } from '../../hooks/useLanguages';
import { changeSurvey, type EditorContext } from './editorContext';
import { EditorActions } from './EditorActions';
import { OptionEditor } from './OptionEditor';
import { ADD_OPTION_FAILED, SAVE_FAILED } from './values';

const questionValues = (question: SurveyQuestion) => ({
  questionType: question.questionType,
  title: question.title,
  helperText: question.helperText ?? '',
  questionCategoryId: question.questionCategoryId ?? '',
  tagIds: question.tags.map((t) => t.id),
  translations: question.translations,
});

export function QuestionEditor({
  ctx,
  page,
  question,
  index,
  count,
}: {
  ctx: EditorContext;
  page: SurveyPage;
  question: SurveyQuestion;
  index: number;
  count: number;
}) {
  const [values, setValues] = useDraft(questionValues(question));
  const action = useAction();
  const addOption = useAction();
  const remove = useDeleteWithConfirm(ctx.api.removeQuestion, 'Question');
  const set = (patch: Partial<typeof values>) => setValues((previous) => ({ ...previous, ...patch }));
  const translate = (code: string, key: 'title' | 'helperText', text: string) =>
    set({ translations: { ...values.translations, [code]: { ...values.translations[code], [key]: text } } });

  const change = changeSurvey(ctx, action.run, SAVE_FAILED);
  const save = () =>
    change(() =>
      ctx.api.updateQuestion(question.id, {
        questionType: values.questionType,
        title: values.title,
        helperText: values.helperText || null,
        questionCategoryId: values.questionCategoryId ? Number(values.questionCategoryId) : null,
        tagIds: values.tagIds.map(Number),
        translations: values.translations,
      }),
    );
  const move = (to: number) => change(() => ctx.api.updateQuestion(question.id, { displayOrder: to }));
  const add = () => changeSurvey(ctx, addOption.run, ADD_OPTION_FAILED)(() => ctx.api.addOption(question.id));

  const name = `question-${question.id}`;
  const withOptions = isChoiceType(question.questionType) || question.options.length > 0;
  return (
    <li className="question-editor panel" aria-label={`Question ${index + 1}`} aria-busy={action.busy || undefined}>
      <FormErrors message={action.error} />
      <div className="form-grid">
        <QuestionTypeSelect name={name} value={values.questionType} onChange={(questionType) => set({ questionType })} />
        <TextField label="Question title" name={`${name}-title`} required maxLength={500} value={values.title} onChange={(title) => set({ title })} />
        <QuestionCategorySelect
          name={name}
          categories={ctx.categories}
          value={values.questionCategoryId}
          onChange={(questionCategoryId) => set({ questionCategoryId })}
        />
      </div>
      <TextArea
        label="Helper text"
        name={`${name}-helper`}
        rows={2}
        maxLength={1000}
        value={values.helperText}
        onChange={(helperText) => set({ helperText })}
      />
      <MultiCheckList
        label="Tags"
        name={`${name}-tags`}
        options={ctx.tags.options}
        loading={ctx.tags.loading}
        value={values.tagIds}
        onChange={(tagIds) => set({ tagIds })}
      />
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
      <EditorActions
        ctx={ctx}
        noun="Question"
        moveLabel={`question ${index + 1}`}
        index={index}
        count={count}
        busy={action.busy}
        onSave={save}
        onMove={move}
        remove={() => remove(question.id)}
      />
      {withOptions && (
        <section className="options-editor" aria-label={`Options of question ${index + 1}`}>
          <h3 className="section-title">Options</h3>
          <ol className="option-list">
            {question.options.map((option, i) => (
              <OptionEditor key={option.id} ctx={ctx} page={page} option={option} index={i} count={question.options.length} />
            ))}
          </ol>
          <FormErrors message={addOption.error} />
          <BusyButton className="btn btn-small btn-secondary" busy={addOption.busy} onClick={add}>
            Add Option
          </BusyButton>
        </section>
      )}
    </li>
  );
}
