/**
 * Every colour of a screener's styles (SPEC section 3), grouped, each as 6 or 2 hex digits with
 * a swatch, plus the back button's is-shown flag. Blank means the widget's own colour.
 */
import * as v from 'valibot';
import { SCREENER_STYLE_GROUPS, ScreenerStyles, PROGRESS_BAR_DEFAULT_BACKGROUND, type ScreenerStyleGroup } from '@core/model/screener';
import { contrastWarnings } from '@core/validation/contrast';
import { Checkbox } from '../../components/form/Checkbox';
import { TextField } from '../../components/form/TextField';
import { STYLE_GROUP_LABELS, colourLabel, toStylesInput, type StyleFormValues } from './screenerValues';
import './screeners.css';

/** Problems keyed `group.name`, from the same schema the server uses. */
export function styleIssues(values: StyleFormValues): Record<string, string> {
  const result = v.safeParse(ScreenerStyles, toStylesInput(values));
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = (issue.path ?? []).map((p) => String(p.key)).join('.');
    out[key] ??= issue.message;
  }
  return out;
}

/** Colours participants may find hard to read (below WCAG AA where the widget uses them); a warning, not an error. */
export function ContrastWarnings({ colours }: { colours: Record<string, string> }) {
  const warnings = contrastWarnings(colours, PROGRESS_BAR_DEFAULT_BACKGROUND);
  return (
    <div role="status" className="contrast-warnings">
      {warnings.length > 0 && (
        <>
          <p className="form-warning">Low contrast: these colours are below WCAG AA and may be hard for participants to see.</p>
          <ul>
            {warnings.map((w) => {
              const [group, name] = w.key.split('.') as [ScreenerStyleGroup, string];
              return (
                <li key={w.key}>
                  {colourLabel(group, name)} {w.what}: {w.ratio}:1, needs {w.min}:1
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}

/** A colour for a swatch, when the text is one. */
const swatch = (text: string) => {
  const t = text.trim();
  if (/^[0-9a-f]{6}$/i.test(t)) return `#${t}`;
  if (/^[0-9a-f]{2}$/i.test(t)) return `#${t}${t}${t}`;
  return undefined;
};

export function StylesFields({
  value,
  onChange,
  errors,
}: {
  value: StyleFormValues;
  onChange: (value: StyleFormValues) => void;
  errors: Record<string, string>;
}) {
  const setColour = (key: string, text: string) => onChange({ ...value, colours: { ...value.colours, [key]: text } });
  return (
    <div className="styles-fields">
      {(Object.entries(SCREENER_STYLE_GROUPS) as [ScreenerStyleGroup, readonly string[]][]).map(([group, names]) => (
        <fieldset key={group} className="styles-group">
          <legend>{STYLE_GROUP_LABELS[group]}</legend>
          {names.map((name) => {
            const key = `${group}.${name}`;
            const colour = swatch(value.colours[key] ?? '');
            return (
              <div key={key} className="colour-field">
                <TextField
                  label={colourLabel(group, name)}
                  name={`styles-${group}-${name}`}
                  maxLength={6}
                  placeholder={group === 'progressBar' && name === 'background' ? PROGRESS_BAR_DEFAULT_BACKGROUND : 'default'}
                  value={value.colours[key] ?? ''}
                  error={errors[key]}
                  onChange={(text) => setColour(key, text)}
                />
                <span className="colour-swatch" aria-hidden="true" style={colour ? { background: colour } : undefined} />
              </div>
            );
          })}
          {group === 'backButton' && (
            <Checkbox
              label="Show Back Button"
              name="styles-backButton-isShown"
              checked={value.backButtonShown}
              onChange={(checked) => onChange({ ...value, backButtonShown: checked })}
            />
          )}
        </fieldset>
      ))}
      <ContrastWarnings colours={value.colours} />
    </div>
  );
}
