import { useState } from 'react';
import * as v from 'valibot';
import { messageSettingsApi } from '@core/api/messages';
import { MESSAGE_KIND_LABELS, MessageSettingInput, isMessageKind, type MessageSetting } from '@core/model/message';
import { useAsync } from '../../hooks/useAsync';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useBusyCall } from '../../hooks/useBusyCall';
import { ErrorText } from '../../components/form/FormErrors';

const labelOf = (kind: string) => (isMessageKind(kind) ? MESSAGE_KIND_LABELS[kind] : kind);

type Draft = Record<string, { isEnabled: boolean; delay: string }>;

const draftOf = (items: MessageSetting[]): Draft => Object.fromEntries(items.map((s) => [s.id, { isEnabled: s.isEnabled, delay: String(s.delayMinutes) }]));

function SettingsForm({ items, canEdit, onSaved }: { items: MessageSetting[]; canEdit: boolean; onSaved: () => void }) {
  const api = useApi(messageSettingsApi);
  const notify = useNotify();
  const [draft, setDraft] = useState<Draft>(() => draftOf(items));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusyCall((message) => notify('error', message));

  const save = async () => {
    const changed: { id: string; input: { isEnabled: boolean; delayMinutes: number } }[] = [];
    const found: Record<string, string> = {};
    for (const setting of items) {
      const row = draft[setting.id]!;
      // Checked here with the server's own schema, so a bad delay is named before anything is sent.
      const parsed = v.safeParse(MessageSettingInput, { isEnabled: row.isEnabled, delayMinutes: row.delay.trim() === '' ? Number.NaN : Number(row.delay) });
      if (!parsed.success) found[setting.id] = parsed.issues[0]?.message ?? 'Not valid.';
      else if (parsed.output.isEnabled !== setting.isEnabled || parsed.output.delayMinutes !== setting.delayMinutes)
        changed.push({ id: setting.id, input: parsed.output });
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || changed.length === 0) return;
    await run(async () => {
      for (const { id, input } of changed) await api.update(id, input);
      notify('success', 'Message settings saved.');
      onSaved();
    }, 'Could not save the message settings');
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      noValidate
      aria-busy={busy || undefined}
    >
      {/* A region that may scroll sideways on a phone must be reachable by keyboard. */}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Messages this engagement sends">
        <table className="data-table">
          <caption className="sr-only">Messages this engagement sends</caption>
          <thead>
            <tr>
              <th scope="col">Message</th>
              <th scope="col">Sent</th>
              <th scope="col">Delay (minutes)</th>
            </tr>
          </thead>
          <tbody>
            {items.map((setting) => {
              const row = draft[setting.id]!;
              const label = labelOf(setting.kind);
              const error = errors[setting.id];
              return (
                <tr key={setting.id}>
                  <th scope="row">{label}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Send ${label}`}
                      checked={row.isEnabled}
                      disabled={!canEdit}
                      onChange={(event) => setDraft({ ...draft, [setting.id]: { ...row, isEnabled: event.target.checked } })}
                    />
                  </td>
                  <td>
                    <input
                      className="input"
                      type="number"
                      min={0}
                      max={43200}
                      aria-label={`Delay of ${label}, minutes`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `message-delay-${setting.kind}-error` : undefined}
                      value={row.delay}
                      disabled={!canEdit}
                      onChange={(event) => setDraft({ ...draft, [setting.id]: { ...row, delay: event.target.value } })}
                    />
                    {error && (
                      <p className="field-error" id={`message-delay-${setting.kind}-error`}>
                        {error}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {canEdit && (
        <p>
          <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
            Save Messages
          </button>
        </p>
      )}
    </form>
  );
}

/**
 * Which messages the engagement sends (each kind on or off, with a delay): an Admin or Super User
 * changes them here; other staff see them.
 */
export function MessageSettingsPanel({ engagementId, canEdit }: { engagementId: string; canEdit: boolean }) {
  const api = useApi(messageSettingsApi);
  const settings = useAsync(() => api.list(engagementId), [api, engagementId]);
  return (
    <section className="panel" id="messages" aria-labelledby="message-settings-title">
      <h2 id="message-settings-title">Messages</h2>
      <p className="field-hint">E-mail sent by itself for this engagement. Staff messages never hold a participant&apos;s answers or contact details.</p>
      {settings.error ? (
        <ErrorText message="Could not load the message settings." />
      ) : settings.data ? (
        <SettingsForm
          key={settings.data.items.map((s) => `${s.id}:${s.isEnabled}:${s.delayMinutes}`).join()}
          items={settings.data.items}
          canEdit={canEdit}
          onSaved={settings.reload}
        />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
