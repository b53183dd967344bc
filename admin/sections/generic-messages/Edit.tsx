/** One generic message: its default-language text beside each active language's translation. */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { genericMessagesApi } from '@core/api/genericMessages';
import { GenericMessagePatch, type GenericMessage } from '@core/model/genericMessage';
import { FormErrors } from '../../components/form/FormErrors';
import { TextArea } from '../../components/form/TextArea';
import { TranslationFields } from '../../components/form/TranslationFields';
import { useEntityForm } from '../../components/form/useEntityForm';
import { RecordLoader } from '../../components/RecordLoader';
import { languageLabel, useActiveLanguages } from '../../hooks/useLanguages';
import { useRouteRecord } from '../../hooks/useRouteRecord';
import { pathTo } from '../../routing/routes';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';

const FORM_ID = 'generic-message-form';

function GenericMessageForm({ genericMessage }: { genericMessage: GenericMessage }) {
  const api = useApi(genericMessagesApi);
  const navigate = useNavigate();
  const notify = useNotify();
  const languages = useActiveLanguages();
  const [translations, setTranslations] = useState<Record<string, string>>(genericMessage.translations);
  const form = useEntityForm({ message: genericMessage.message }, { also: translations });
  const defaultLanguage = languages.all.find((l) => l.isDefault);

  useTopBar({
    objectTitle: genericMessage.keyName,
    buttons: [
      { label: 'Cancel', to: pathTo('GenericMessagesIndex') },
      { label: 'Save', submits: FORM_ID, busy: form.busy },
    ],
  });

  const onSubmit = form.handleSubmit(async (values) => {
    // Translations of languages not active now are kept as they are.
    const input = form.parse(GenericMessagePatch, { message: values.message, translations });
    if (!input) return;
    await api.update(genericMessage.id, input);
    notify('success', `Message ${genericMessage.keyName} saved.`);
    navigate(pathTo('GenericMessagesIndex'));
  });

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <p className="field-hint">
        Key <code>{genericMessage.keyName}</code> · {genericMessage.messageType === 'global' ? 'Global' : 'Default'} message
      </p>
      <TranslationFields
        languages={languages.translated}
        values={translations}
        onChange={(isoCode, text) => setTranslations((previous) => ({ ...previous, [isoCode]: text }))}
        multiline
        maxLength={5000}
        loading={languages.loading}
        error={languages.error ?? form.errors.translations}
        defaultRow={{
          label: defaultLanguage ? `${languageLabel(defaultLanguage)} · default` : 'Default language',
          control: <TextArea label="Message" required maxLength={5000} {...form.text('message')} />,
        }}
      />
    </form>
  );
}

export default function GenericMessagesEdit() {
  return (
    <RecordLoader state={useRouteRecord(genericMessagesApi, (api, id) => api.get(id))} resource="generic message">
      {(genericMessage) => <GenericMessageForm genericMessage={genericMessage} />}
    </RecordLoader>
  );
}
