/**
 * The channel's hidden fields on its form: a row per field (its name, the snippet's
 * `data-field-<name>`, and its longest length), added and removed here; the schema
 * (core/model/mediaChannel.ts HiddenFields) checks them when the form is saved.
 */
import { HIDDEN_FIELD_MAX_LENGTH, HIDDEN_FIELDS_MAX, type HiddenField } from '@core/model/mediaChannel';
import './media-channels.css';

/** A row as the controls hold it. */
export interface HiddenFieldRow {
  name: string;
  maxLength: string;
}

export const toRows = (fields: readonly HiddenField[] | undefined): HiddenFieldRow[] =>
  (fields ?? []).map((f) => ({ name: f.name, maxLength: String(f.maxLength) }));

/** The rows as the API takes them (an empty length is not a number, which the schema refuses). */
export const fromRows = (rows: readonly HiddenFieldRow[]) =>
  rows.map((r) => ({ name: r.name.trim(), maxLength: r.maxLength.trim() === '' ? Number.NaN : Number(r.maxLength) }));

export function HiddenFieldsEditor({ rows, onChange, error }: { rows: HiddenFieldRow[]; onChange: (rows: HiddenFieldRow[]) => void; error?: string }) {
  const set = (i: number, patch: Partial<HiddenFieldRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="field hidden-fields">
      <legend className="field-label">Hidden fields</legend>
      <p className="field-hint" id="hidden-fields-hint">
        Values a partner's page passes with a run as <code>data-field-&lt;name&gt;</code> attributes of the snippet; only these are kept, each up to its length.
      </p>
      {rows.length > 0 && (
        <table className="data-table hidden-fields-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Max length</th>
              <th scope="col">
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                <td>
                  <input
                    className="input"
                    aria-label={`Hidden field ${i + 1} name`}
                    value={row.name}
                    maxLength={40}
                    onChange={(e) => set(i, { name: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    className="input"
                    aria-label={`Hidden field ${i + 1} max length`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={HIDDEN_FIELD_MAX_LENGTH}
                    value={row.maxLength}
                    onChange={(e) => set(i, { maxLength: e.target.value })}
                  />
                </td>
                <td>
                  <button type="button" className="btn btn-link" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                    Remove<span className="sr-only"> hidden field {i + 1}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {rows.length < HIDDEN_FIELDS_MAX && (
        <button type="button" className="btn" onClick={() => onChange([...rows, { name: '', maxLength: '100' }])}>
          Add hidden field
        </button>
      )}
    </fieldset>
  );
}
