/**
 * Picks a survey by its title, version and approval (never by its identity), searchable as
 * one types: a combobox over the surveys `search` finds — the server's list of versioned
 * surveys, or a list the screen already holds (`searchWithin`).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { surveyLabel, type SurveyNaming } from '@core/model/surveyNaming';
import { Field, useControlIds } from './form/Field';
import './components.css';

export interface SurveyPickerProps {
  label: string;
  name: string;
  /** The chosen survey's identity; '' when none is chosen. */
  value: string;
  onChange: (identity: string) => void;
  /** The surveys matching what was typed ('' for the first ones). */
  search: (query: string) => Promise<readonly SurveyNaming[]>;
  hint?: string;
  error?: string;
  disabled?: boolean;
  /** Searches again when this changes: the identities a local list holds, which may arrive after typing. */
  refreshKey?: string;
}

/** A search over surveys the screen already has: by title, version text or identity. */
export const searchWithin =
  (surveys: readonly SurveyNaming[]) =>
  async (query: string): Promise<readonly SurveyNaming[]> => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return surveys.filter((s) => {
      const text = `${surveyLabel(s)} ${s.oFormIdentity}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  };

const SEARCH_DELAY_MS = 200;

export function SurveyPicker({ label, name, value, onChange, search, hint, error, disabled, refreshKey = '' }: SurveyPickerProps) {
  const ids = useControlIds(name, error, hint);
  const listId = `${useId()}-options`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState<readonly SurveyNaming[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const chosen = useRef<SurveyNaming | null>(null);
  // The latest search, so a caller's new function on each render does not search again.
  const searchRef = useRef(search);
  searchRef.current = search;

  // A choice cleared from outside (after it was added) empties the box.
  useEffect(() => {
    if (value === '' && chosen.current) {
      chosen.current = null;
      setText('');
    }
  }, [value]);

  useEffect(() => {
    if (!open) return;
    let current = true;
    const timer = setTimeout(() => {
      searchRef
        .current(text.trim())
        .then((surveys) => {
          if (!current) return;
          setFound(surveys);
          setProblem(null);
          setActive(0);
        })
        .catch(() => current && setProblem('Could not load the surveys. Try again.'));
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [open, text, refreshKey]);

  const choose = (survey: SurveyNaming) => {
    chosen.current = survey;
    setText(surveyLabel(survey));
    setOpen(false);
    onChange(survey.oFormIdentity);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = found?.length ?? 0;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (count) setActive((i) => (i + 1) % count);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (count) setActive((i) => (i - 1 + count) % count);
    } else if (event.key === 'Enter' && open && found?.[active]) {
      event.preventDefault();
      choose(found[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  const showList = open && !disabled;
  const note = !showList ? null : (problem ?? (found === null ? 'Searching…' : found.length === 0 ? 'No survey matches.' : null));
  const options = showList && !problem && found?.length ? found : null;
  return (
    <Field ids={ids} label={label} error={error} hint={hint}>
      <div className="picker">
        <input
          {...ids}
          className="input"
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          placeholder="Type to search by title"
          aria-autocomplete="list"
          aria-expanded={options !== null}
          aria-controls={listId}
          aria-activedescendant={options?.[active] ? optionId(active) : undefined}
          disabled={disabled}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            if (value) {
              chosen.current = null;
              onChange('');
            }
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label={`${label} options`} className="picker-options" hidden={options === null}>
          {options?.map((survey, i) => (
            <li
              key={survey.oFormIdentity}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'picker-option active' : 'picker-option'}
              // Chosen before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(survey);
              }}
              onMouseEnter={() => setActive(i)}
            >
              {surveyLabel(survey)}
            </li>
          ))}
        </ul>
        <p className="picker-note" role="status" hidden={note === null}>
          {note ?? ''}
        </p>
      </div>
    </Field>
  );
}

/** A survey picker and its Add Survey button, enabled once a survey is chosen and nothing is `busy`. */
export function SurveyAdder({ busy = false, onAdd, ...picker }: SurveyPickerProps & { busy?: boolean; onAdd: () => void }) {
  return (
    <div className="add-lookup">
      <SurveyPicker {...picker} />
      <button type="button" className="btn btn-small btn-secondary" disabled={busy || !picker.value} onClick={onAdd}>
        Add Survey
      </button>
    </div>
  );
}
