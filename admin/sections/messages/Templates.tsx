/**
 * MessageTemplatesIndex (Admin, Super User): the template of each message kind in each language
 * (subject, HTML and plain text), the shipped default until edited, and of each kind that is also
 * texted its text (SMS: plain text only, with its length in characters and segments as typed and
 * as rendered). Choose one, edit it, save (the server sanitizes the HTML), see it rendered with
 * the demo study's words, or put the default back. The placeholders it may hold are listed beside it.
 */
import { useState } from 'react';
import { ApiError } from '@core/api/client';
import { messageTemplatesApi } from '@core/api/messages';
import {
  MESSAGE_KIND_LABELS,
  MessageTemplateInput,
  SMS_MAX_CHARACTERS,
  SmsTemplateInput,
  isMessageKind,
  smsLength,
  type MessageTemplate,
  type MessageTemplatePreview,
  type SmsLength,
} from '@core/model/message';
import { FormErrors } from '../../components/form/FormErrors';
import { Select } from '../../components/form/Select';
import { TextArea } from '../../components/form/TextArea';
import { TextField } from '../../components/form/TextField';
import { useEntityForm } from '../../components/form/useEntityForm';
import { RecordLoader } from '../../components/RecordLoader';
import { useAsync } from '../../hooks/useAsync';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useTopBar } from '../../state/topBar';

const FORM_ID = 'message-template-form';
const LANGUAGE_LABELS: Record<string, string> = { en: 'English', es: 'Spanish' };
const labelOf = (t: MessageTemplate) =>
  `${isMessageKind(t.kind) ? MESSAGE_KIND_LABELS[t.kind] : t.kind} · ${LANGUAGE_LABELS[t.language] ?? t.language}${t.channel === 'sms' ? ' · SMS' : ''}`;

/** "112 characters · 1 segment (GSM-7)": what a text costs as the carriers count it. */
const describeLength = ({ characters, segments, encoding }: SmsLength) =>
  `${characters} characters · ${segments} ${segments === 1 ? 'segment' : 'segments'} (${encoding})`;

function TemplateForm({ template, onSaved }: { template: MessageTemplate; onSaved: () => void }) {
  const api = useApi(messageTemplatesApi);
  const notify = useNotify();
  const isSms = template.channel === 'sms';
  const form = useEntityForm({
    subject: template.channel === 'email' ? template.subject : '',
    html: template.channel === 'email' ? template.html : '',
    text: template.text,
  });
  const [preview, setPreview] = useState<MessageTemplatePreview | null>(null);

  useTopBar({ buttons: [{ label: 'Save', submits: FORM_ID, busy: form.busy }] });

  const onSubmit = form.handleSubmit(async (values) => {
    const input = isSms ? form.parse(SmsTemplateInput, { text: values.text }) : form.parse(MessageTemplateInput, values);
    if (!input) return;
    await api.update(template.id, input);
    notify('success', `${labelOf(template)} saved.`);
    onSaved();
  });

  const reset = async () => {
    try {
      await api.reset(template.id);
      notify('success', `${labelOf(template)}: the default is back.`);
      onSaved();
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : 'Could not put the default back');
    }
  };

  const showPreview = async () => {
    try {
      setPreview(await api.preview(template.id));
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : 'Could not render the preview');
    }
  };

  return (
    <form id={FORM_ID} className="panel entity-form" onSubmit={onSubmit} noValidate aria-busy={form.busy || undefined}>
      <FormErrors message={form.formError} />
      <p className="field-hint">
        {template.isDefault ? 'The shipped default.' : 'Edited by staff.'} Placeholders: {template.placeholders.map((p) => `{{${p}}}`).join(', ')}
      </p>
      {isSms ? (
        <TextArea
          label="Text (SMS)"
          required
          rows={5}
          maxLength={SMS_MAX_CHARACTERS}
          hint={`As typed: ${describeLength(smsLength(form.values.text))}. Plain text only; it must say how to opt out (STOP).`}
          {...form.text('text')}
        />
      ) : (
        <>
          <TextField label="Subject" required maxLength={200} {...form.text('subject')} />
          <TextArea label="HTML" required rows={8} maxLength={20000} {...form.text('html')} />
          <TextArea label="Plain text" required rows={8} maxLength={20000} {...form.text('text')} />
        </>
      )}
      <p>
        <button type="button" className="btn btn-secondary" onClick={() => void showPreview()}>
          Preview
        </button>{' '}
        {!template.isDefault && (
          <button type="button" className="btn btn-secondary" onClick={() => void reset()}>
            Put the default back
          </button>
        )}
      </p>
      {preview && (
        <section aria-label="Preview">
          <h2>{'subject' in preview ? preview.subject : 'Text (SMS)'}</h2>
          <pre>{preview.text}</pre>
          {!('subject' in preview) && <p>As sent: {describeLength(preview)}</p>}
        </section>
      )}
    </form>
  );
}

export default function MessageTemplatesIndex() {
  const api = useApi(messageTemplatesApi);
  const state = useAsync(() => api.list(), [api]);
  const [chosen, setChosen] = useState('newReferral.en');
  return (
    <RecordLoader state={state} resource="message templates">
      {(result) => {
        const template = result.items.find((t) => t.id === chosen) ?? result.items[0];
        return (
          <>
            <div className="panel">
              <Select
                label="Template"
                name="template"
                value={template?.id ?? ''}
                onChange={setChosen}
                options={result.items.map((t) => ({ value: t.id, label: labelOf(t) }))}
              />
            </div>
            {template && (
              <TemplateForm
                key={`${template.id}:${template.channel === 'email' ? template.subject : ''}:${template.text}:${template.isDefault}`}
                template={template}
                onSaved={state.reload}
              />
            )}
          </>
        );
      }}
    </RecordLoader>
  );
}
