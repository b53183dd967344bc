import { languagesApi } from '@core/api/languages';
import { LanguageInput, type Language } from '@core/model/language';
import { Checkbox } from '../../components/form/Checkbox';
import { EntityForm } from '../../components/form/EntityForm';
import { TextField } from '../../components/form/TextField';
import { useRecordForm } from '../../components/form/useRecordForm';
import { useApi } from '../../state/services';
import { LANGUAGE_LABELS as L, toLanguageFormValues, toLanguageInput } from './languageValues';

const FORM_ID = 'language-form';

export function LanguageForm({ language }: { language?: Language }) {
  const api = useApi(languagesApi);
  const { form, onSubmit } = useRecordForm({
    formId: FORM_ID,
    api,
    record: language,
    title: language?.description,
    initial: toLanguageFormValues(language),
    view: 'LanguagesView',
    index: 'LanguagesIndex',
    schema: LanguageInput,
    toInput: toLanguageInput,
  });

  return (
    <EntityForm id={FORM_ID} form={form} onSubmit={onSubmit}>
      <TextField label={L.name} required maxLength={100} hint="As speakers of the language write it, e.g. Español." {...form.text('name')} />
      <TextField label={L.description} required maxLength={255} hint="In English, e.g. Spanish (Mexico)." {...form.text('description')} />
      <TextField
        label={L.isoCode}
        required
        maxLength={35}
        disabled={language?.isDefault}
        hint={language?.isDefault ? "The default language's code cannot change." : 'A language code such as es or es-MX.'}
        {...form.text('isoCode')}
      />
      <Checkbox
        label={L.isActive}
        disabled={language?.isDefault}
        hint={language?.isDefault ? 'The default language is always active.' : undefined}
        {...form.checkbox('isActive')}
      />
    </EntityForm>
  );
}
