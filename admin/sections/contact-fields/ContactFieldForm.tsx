import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { contactFieldsApi } from '@core/api/contactFields';
import { screenersApi } from '@core/api/screeners';
import { CONTACT_FIELD_TYPES, ContactFieldInput, type ContactField } from '@core/model/contactField';
import { Checkbox } from '../../components/form/Checkbox';
import { FormErrors } from '../../components/form/FormErrors';
import { labelledOptions, Select } from '../../components/form/Select';
import { TextField } from '../../components/form/TextField';
import { TranslationFields } from '../../components/form/TranslationFields';
import { useEntityForm } from '../../components/form/useEntityForm';
import { languageLabel, useActiveLanguages } from '../../hooks/useLanguages';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';
import { CONTACT_FIELD_LABELS as L, TYPE_LABELS } from './contactFieldValues';

const FORM_ID = 'contact-field-form';

/** Adds or edits a contact field; added from a screener (`screenerId`), it is attached to that screener last. */
export function ContactFieldForm({ field, screenerId }: { field?: ContactField; screenerId?: string }) {
  const api = useApi(contactFieldsApi);
  const screeners = useApi(screenersApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const languages = useActiveLanguages();
  const defaultLanguage = languages.all.find((l) => l.isDefault);
  const [translations, setTranslations] = useState<Record<string, string>>(field?.translations ?? {});
  const form = useEntityForm(
    {
      label: field?.label ?? '',
      name: field?.name ?? '',
      fieldType: field?.fieldType ?? 'text',
      required: field?.required ?? false,
    },
    { also: translations },
  );

  useTopBar({
    objectTitle: field?.label,
    buttons: [
      { label: 'Cancel', to: screenerId ? pathTo('ScreenerView', { screenerId }) : pathTo('ContactFieldsIndex') },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const input = form.parse(ContactFieldInput, { ...values, translations });
    if (!input) return;
    if (field) await api.update(field.id, input);
    else {
      const created = await api.create(input);
      if (screenerId) {
        const attached = await screeners.contactFields(screenerId);
        await screeners.setContactFields(screenerId, [...attached.items.map((a) => a.contactFieldId), created.id]);
      }
    }
    notify('success', `Contact field ${input.label} saved.`);
    navigate(screenerId ? pathTo('ScreenerView', { screenerId }) : pathTo('ContactFieldsIndex'));
  });

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <div className="form-grid">
        <TextField
          label={L.name}
          required
          maxLength={64}
          hint="A stable machine name such as first_name: answers are stored under it."
          {...form.text('name')}
        />
        <Select label={L.type} options={labelledOptions(CONTACT_FIELD_TYPES, TYPE_LABELS)} {...form.text('fieldType')} />
        <Checkbox label={L.required} {...form.checkbox('required')} />
      </div>
      <h2 className="section-title">{L.label}</h2>
      <TranslationFields
        languages={languages.translated}
        values={translations}
        onChange={(isoCode, text) => setTranslations((previous) => ({ ...previous, [isoCode]: text }))}
        maxLength={255}
        loading={languages.loading}
        error={languages.error}
        defaultRow={{
          label: defaultLanguage ? `${languageLabel(defaultLanguage)} · default` : 'Default language',
          control: <TextField label={L.label} required maxLength={255} {...form.text('label')} />,
        }}
      />
    </form>
  );
}
