/** One option of a choice question: label, value, transition, disqualification and translations. */
import { useState } from 'react';
import { pageSummaries, type SurveyOption, type SurveyPage } from '@core/model/legacySurvey';
import { transitionTargets } from '@core/survey/authoring';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { Select, type SelectOption } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { useDraft } from '../../components/unsaved/useDraft';
import { useAction } from '../../hooks/useAction';
import { languageLabel } from '../../hooks/useLanguages';
import { changeSurvey, type EditorContext } from './editorContext';
import { EditorActions } from './EditorActions';
import { EngagementOverrides } from './EngagementOverrides';
import { SAVE_FAILED } from './values';

const optionValues = (option: SurveyOption) => ({
  label: option.label,
  value: option.value,
  isDisqualified: option.isDisqualified,
  transition: option.transitionTo === 'page' ? `page:${option.transitionTarget}` : (option.transitionTo ?? ''),
  translations: option.translations,
});

export function OptionEditor({
  ctx,
  page,
  option,
  index,
  count,
}: {
  ctx: EditorContext;
  page: SurveyPage;
  option: SurveyOption;
  index: number;
  count: number;
}) {
  const [values, setValues] = useDraft(optionValues(option));
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

  const change = changeSurvey(ctx, action.run, SAVE_FAILED);
  const save = () =>
    change(() => {
      const [to, target] = values.transition.startsWith('page:')
        ? ['page' as const, Number(values.transition.slice(5))]
        : [values.transition === 'end' ? ('end' as const) : null, null];
      return ctx.api.updateOption(option.id, {
        label: values.label,
        value: values.value,
        isDisqualified: values.isDisqualified,
        transitionTo: to,
        transitionTarget: target,
        translations: values.translations,
      });
    });
  const move = (to: number) => change(() => ctx.api.updateOption(option.id, { displayOrder: to }));

  const name = `option-${option.id}`;
  return (
    <li className="option-editor" aria-label={`Option ${option.label}`} aria-busy={action.busy || undefined}>
      <FormErrors message={action.error} />
      <div className="form-grid">
        <TextField label="Label" name={`${name}-label`} required maxLength={500} value={values.label} onChange={(label) => set({ label })} />
        <TextField label="Value" name={`${name}-value`} required maxLength={200} value={values.value} onChange={(value) => set({ value })} />
        <Select
          label="Transition"
          name={`${name}-transition`}
          emptyLabel="Next page"
          options={targets}
          value={values.transition}
          onChange={(transition) => set({ transition })}
        />
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
      <EditorActions
        ctx={ctx}
        noun="Option"
        moveLabel={`option ${option.label}`}
        index={index}
        count={count}
        busy={action.busy}
        onSave={save}
        onMove={move}
        remove={() => remove(option.id)}
        extra={
          <button type="button" className="btn btn-small btn-secondary" aria-expanded={showEngagements} onClick={() => setShowEngagements((s) => !s)}>
            Engagements
          </button>
        }
      />
      {showEngagements && <EngagementOverrides ctx={ctx} option={option} />}
    </li>
  );
}
