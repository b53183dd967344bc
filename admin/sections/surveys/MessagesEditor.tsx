/**
 * The version's nine messages in the language being edited. A message the version has not set
 * shows the default as its placeholder and is left unset (the default then applies); a text
 * saves when it loses focus, or all at once with Save Messages.
 */
import { useEffect, useRef, useState } from 'react';
import type { SurveyMessage, SurveyMessageType } from '@core/model/surveyMessage';
import { SURVEY_MESSAGE_TYPES } from '@core/model/surveyMessage';
import { FormErrors } from '../../components/form/FormErrors';
import { TextArea } from '../../components/form/TextArea';
import { useAsync } from '../../hooks/useAsync';
import { useUnsavedChanges } from '../../components/unsaved/UnsavedChanges';
import { useNotify } from '../../state/notices';
import type { EditorContext } from './context';
import { MESSAGE_TYPE_LABELS, SAVE_MESSAGES_FAILED, failureText } from './values';

export function MessagesEditor({ ctx, language }: { ctx: EditorContext; language: string }) {
  const { form } = ctx.detail;
  const notify = useNotify();
  const state = useAsync(() => Promise.all([ctx.api.messages(form.identity, form.id), ctx.api.defaultMessages()]), [ctx.api, form.identity, form.id]);
  const [stored, setStored] = useState<SurveyMessage[]>([]);
  const [texts, setTexts] = useState<Partial<Record<SurveyMessageType, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The texts are taken from the version once, when it is read: a save's answer never
  // overwrites what was typed meanwhile.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!state.data) return;
    const [own] = state.data;
    setStored(own);
    setTexts(Object.fromEntries(SURVEY_MESSAGE_TYPES.map((t) => [t, own.find((m) => m.messageType === t && m.language === language)?.message ?? ''])));
    setReady(true);
  }, [state.data, language]);
  const defaultOf = (type: SurveyMessageType) => state.data?.[1].find((m) => m.messageType === type && m.language === language)?.message ?? '';

  // Saves queue up (a blur, then Save Messages) and read what the previous ones stored.
  const queue = useRef<Promise<boolean>>(Promise.resolve(true));
  const storedRef = useRef(stored);
  storedRef.current = stored;
  /** Writes the given types whose text differs from what the version holds. */
  const save = (types: readonly SurveyMessageType[]) => {
    const wanted = { ...texts };
    queue.current = queue.current.then(async () => {
      setBusy(true);
      try {
        for (const type of types) {
          const text = wanted[type] ?? '';
          const existing = storedRef.current.find((m) => m.messageType === type && m.language === language);
          if (existing ? existing.message === text : text === '') continue;
          const written = existing
            ? await ctx.api.updateMessage(existing.id, text)
            : await ctx.api.addMessage({ oFormVersionId: Number(form.id), messageType: type, language, message: text });
          storedRef.current = [...storedRef.current.filter((m) => m.id !== written.id), written];
          setStored(storedRef.current);
        }
        setError(null);
        return true;
      } catch (e) {
        setError(failureText(e, SAVE_MESSAGES_FAILED));
        return false;
      } finally {
        setBusy(false);
      }
    });
    return queue.current;
  };
  const textsRef = useRef(texts);
  textsRef.current = texts;
  useUnsavedChanges(
    () =>
      SURVEY_MESSAGE_TYPES.some((type) => {
        const existing = storedRef.current.find((m) => m.messageType === type && m.language === language);
        return (textsRef.current[type] ?? '') !== (existing?.message ?? '');
      }),
    () => save(SURVEY_MESSAGE_TYPES),
  );

  return (
    <section className="panel" aria-label="Survey messages" aria-busy={busy || state.loading || undefined}>
      <h2 className="section-title">Messages ({language})</h2>
      <FormErrors message={error ?? (state.error ? SAVE_MESSAGES_FAILED : null)} />
      {SURVEY_MESSAGE_TYPES.map((type) => (
        <div key={type} onBlur={() => void save([type])}>
          <TextArea
            label={`${MESSAGE_TYPE_LABELS[type]} (${language})`}
            name={`message-${type}-${language}`}
            rows={2}
            maxLength={5000}
            placeholder={defaultOf(type)}
            value={texts[type] ?? ''}
            disabled={ctx.frozen || state.loading || !ready}
            onChange={(text) => setTexts((t) => ({ ...t, [type]: text }))}
          />
        </div>
      ))}
      {!ctx.frozen && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy || state.loading}
          onClick={async () => {
            if (await save(SURVEY_MESSAGE_TYPES)) notify('success', 'Messages saved.');
          }}
        >
          Save Messages
        </button>
      )}
    </section>
  );
}
