/** An option's per-engagement settings (override, disqualifies, weight), saved together. */
import { useCallback, useEffect, useState } from 'react';
import type { SurveyOption } from '@core/model/legacySurvey';
import { FormErrors } from '../../components/form/FormErrors';
import { useUnsavedValue } from '../../components/unsaved/UnsavedChanges';
import { useAction } from '../../hooks/useAction';
import { useNotify } from '../../state/notices';
import type { EditorContext } from './editorContext';
import { UPDATE_OPTION_ENGAGEMENTS_FAILED } from './values';
import './legacy-surveys.css';

export function EngagementOverrides({ ctx, option }: { ctx: EditorContext; option: SurveyOption }) {
  type Row = { included: boolean; isDisqualified: boolean; weight: string };
  const [rows, setRows] = useState<Record<string, Row> | null>(null);
  const [stored, setStored] = useState<Record<string, Row> | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const action = useAction();
  const notify = useNotify();
  useUnsavedValue(rows, stored);

  const load = useCallback(() => {
    setLoadError(null);
    ctx.api.engagementOptions({ optionId: option.id }).then(
      (result) => {
        const loaded = Object.fromEntries(
          result.items.map((e) => [e.engagementId, { included: true, isDisqualified: e.isDisqualified, weight: String(e.weight) }]),
        );
        setRows(loaded);
        setStored(loaded);
      },
      () => setLoadError('Could not load option engagements'),
    );
  }, [ctx.api, option.id]);
  useEffect(load, [load]);

  const row = (id: string): Row => rows?.[id] ?? { included: false, isDisqualified: false, weight: '0' };
  const set = (id: string, patch: Partial<Row>) => setRows((previous) => ({ ...previous, [id]: { ...row(id), ...patch } }));

  const save = () =>
    action.run(async () => {
      const settings = Object.entries(rows ?? {})
        .filter(([, r]) => r.included)
        .map(([engagementId, r]) => ({ engagementId: Number(engagementId), isDisqualified: r.isDisqualified, weight: Number(r.weight) }));
      await ctx.api.replaceEngagementOptions(option.id, settings);
      setStored(rows);
      notify('success', `Engagements of ${option.label} saved.`);
    }, UPDATE_OPTION_ENGAGEMENTS_FAILED);

  return (
    <fieldset className="engagement-overrides" aria-label={`Engagements of ${option.label}`} aria-busy={action.busy || rows === null || undefined}>
      <legend>Per-engagement settings</legend>
      <FormErrors message={action.error ?? loadError ?? ctx.engagements.error} />
      {ctx.engagements.loading || rows === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <table className="overrides-table">
          <thead>
            <tr>
              <th scope="col">Engagement</th>
              <th scope="col">Override</th>
              <th scope="col">Disqualifies</th>
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {ctx.engagements.options.map((engagement) => {
              const r = row(engagement.value);
              return (
                <tr key={engagement.value}>
                  <th scope="row">{engagement.label}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Override for ${engagement.label}`}
                      checked={r.included}
                      onChange={(e) => set(engagement.value, { included: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Disqualifies for ${engagement.label}`}
                      checked={r.isDisqualified}
                      disabled={!r.included}
                      onChange={(e) => set(engagement.value, { isDisqualified: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      className="input input-narrow"
                      type="number"
                      step={1}
                      aria-label={`Weight for ${engagement.label}`}
                      value={r.weight}
                      disabled={!r.included}
                      onChange={(e) => set(engagement.value, { weight: e.target.value })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" className="btn btn-small btn-primary" disabled={action.busy || rows === null} aria-busy={action.busy || undefined} onClick={save}>
        Save Engagements
      </button>
    </fieldset>
  );
}
