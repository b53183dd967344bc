/**
 * Every text of the version beside its translation in each of the survey's languages, missing
 * ones marked (they block approval), each cell saved when it loses focus; and the grid as a CSV
 * file to hand a translator and read back. Each save is planned from the version as the server
 * holds it at that moment, so two cells of one question saved in quick succession both stay.
 */
import { useMemo, useRef, useState } from 'react';
import { useAsync } from '../../hooks/useAsync';
import { failureText } from '../../hooks/useAction';
import { FormErrors } from '../../components/form/FormErrors';
import { saveBlob } from '../../components/downloadBlob';
import { useUnsavedChanges } from '../../components/unsaved/UnsavedChanges';
import { useNotify } from '../../state/notices';
import { gridWrites, readTranslationsCsv, translationRows, translationsCsv, type CellChange, type GridRow } from '@core/survey/translationGrid';
import type { SurveyMessage } from '@core/model/surveyMessage';
import type { EditorContext } from './context';
import { SAVE_FAILED } from './values';
import './surveys.css';

const KIND_NAMES: Record<GridRow['kind'], string> = {
  page: 'Page title',
  question: 'Question',
  helperText: 'Helper text',
  option: 'Option',
  message: 'Message',
};
const NO_MESSAGES: SurveyMessage[] = [];
const cellKey = (key: string, language: string) => `${key}|${language}`;

export function TranslationsGrid({ ctx, defaultIso }: { ctx: EditorContext; defaultIso: string }) {
  const { form } = ctx.detail;
  const notify = useNotify();
  const languages = useMemo(() => ctx.detail.languages.map((l) => l.isoCode).filter((l) => l !== defaultIso), [ctx.detail.languages, defaultIso]);
  const loaded = useAsync(() => ctx.api.messages(form.identity, form.id), [ctx.api, form.identity, form.id]);
  // Read again after each save, with the version, before the typed cells are let go.
  const [saved, setSaved] = useState<SurveyMessage[] | null>(null);
  const messages = saved ?? loaded.data ?? NO_MESSAGES;
  const rows = useMemo(
    () => translationRows({ pages: ctx.detail.pages, messages, languages, defaultLanguage: defaultIso }),
    [ctx.detail.pages, messages, languages, defaultIso],
  );
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  /** The version and its messages as the server has them now, as the grid reads them. */
  const current = async () => {
    const [detail, own] = await Promise.all([ctx.api.detail(form.id), ctx.api.messages(form.identity, form.id)]);
    return { pages: detail.pages, messages: own, rows: translationRows({ pages: detail.pages, messages: own, languages, defaultLanguage: defaultIso }) };
  };
  const write = async (changes: readonly CellChange[], state: Awaited<ReturnType<typeof current>>) => {
    const writes = gridWrites(state.pages, state.messages, changes);
    for (const page of writes.pages) await ctx.api.updatePage(page.id, { translations: page.translations });
    for (const field of writes.fields) await ctx.api.updateField(field.id, { configuration: field.configuration });
    for (const m of writes.messages) {
      if (m.id) await ctx.api.updateMessage(m.id, m.message);
      else if (m.message) await ctx.api.addMessage({ oFormVersionId: Number(form.id), messageType: m.messageType, language: m.language, message: m.message });
    }
  };

  /**
   * Writes `changes` and records them in the builder's history: undo writes back the texts the
   * cells had, redo the changes again, each planned from the version as it is then.
   */
  const writeUndoable = async (changes: readonly CellChange[], state: Awaited<ReturnType<typeof current>>, label: string) => {
    const before = changes.map((c) => ({ ...c, text: state.rows.find((r) => r.key === c.key)?.texts[c.language] ?? '' }));
    await write(changes, state);
    const again = (target: readonly CellChange[]) => async () => {
      await write(target, await current());
      setSaved(await ctx.api.messages(form.identity, form.id));
    };
    ctx.history?.record({ label, undo: again(before), redo: again(changes) });
  };

  // One save at a time, in the order the cells were left.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  /** Runs a save after those before it, then shows the version as saved and lets go of the cells `sent` held. */
  const run = (task: () => Promise<void>, sent: Record<string, string> = {}) => {
    queue.current = queue.current.then(async () => {
      setBusy(true);
      try {
        await task();
        setError(null);
      } catch (e) {
        setError(failureText(e, SAVE_FAILED));
      } finally {
        await Promise.all([ctx.refresh(), ctx.api.messages(form.identity, form.id).then(setSaved)]).catch(() => undefined);
        setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([k, text]) => sent[k] !== text)));
        setBusy(false);
      }
    });
    return queue.current;
  };
  /** The typed cells that differ from what the grid read. */
  const pending = (): CellChange[] =>
    Object.entries(draftsRef.current).flatMap(([k, text]) => {
      const [key, language] = k.split('|') as [string, string];
      const row = rowsRef.current.find((r) => r.key === key);
      return row && row.texts[language] !== text.trim() ? [{ key, language, text: text.trim() }] : [];
    });
  const saveCells = (keys: readonly string[]) => {
    const sent = Object.fromEntries(Object.entries(draftsRef.current).filter(([k]) => keys.includes(k)));
    return run(async () => {
      const changes = pending().filter((c) => sent[cellKey(c.key, c.language)] !== undefined);
      if (changes.length) await writeUndoable(changes, await current(), changes.length === 1 ? 'translation' : `${changes.length} translations`);
    }, sent);
  };
  useUnsavedChanges(
    () => pending().length > 0,
    () => saveCells(Object.keys(draftsRef.current)),
  );

  const exportCsv = () => {
    const csv = translationsCsv(rows, languages, defaultIso);
    // The byte order mark makes spreadsheets read the file as UTF-8.
    saveBlob(new Blob([`\ufeff${csv}`], { type: 'text/csv' }), `${form.title}-v${form.version}-translations.csv`);
  };
  const importCsv = async (file: File) => {
    setProblems([]);
    const text = await file.text();
    const result = { imported: null as number | null };
    await run(async () => {
      const state = await current();
      const read = readTranslationsCsv(text, state.rows, languages, defaultIso);
      if (!read.ok) {
        setProblems(read.errors);
        return;
      }
      await writeUndoable(read.changes, state, 'translations import');
      result.imported = read.changes.length;
    });
    if (result.imported !== null) notify('success', `${result.imported} translation${result.imported === 1 ? '' : 's'} imported.`);
  };

  const missingCount = rows.reduce((n, r) => n + languages.filter((l) => r.missing[l]).length, 0);
  if (!languages.length) {
    return (
      <section className="panel" aria-label="Translations">
        <p className="muted">This survey is offered in {defaultIso} only. Enable a language above to translate its texts.</p>
      </section>
    );
  }
  return (
    <section className="panel translations-panel" aria-label="Translations" aria-busy={busy || loaded.loading || undefined}>
      <div className="translations-head">
        <h2 className="section-title">Translations</h2>
        <p className={missingCount ? 'translations-count missing' : 'translations-count'} role="status">
          {missingCount ? `${missingCount} missing: approval waits for them.` : 'Every text is translated.'}
        </p>
        <button type="button" className="btn btn-small btn-secondary" onClick={exportCsv} disabled={loaded.loading}>
          Export CSV
        </button>
        {!ctx.frozen && (
          <label className="btn btn-small btn-secondary file-button">
            Import CSV
            <input
              type="file"
              accept=".csv,text/csv"
              className="sr-only"
              disabled={busy}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void importCsv(file);
              }}
            />
          </label>
        )}
      </div>
      <FormErrors message={error ?? (loaded.error ? SAVE_FAILED : null)} />
      {problems.length > 0 && (
        <div className="form-errors" role="alert">
          <p>Nothing was imported: the file has {problems.length === 1 ? 'a mistake' : 'mistakes'}.</p>
          <ul aria-label="Import problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="translations-scroll">
        <table className="translations-grid">
          <thead>
            <tr>
              <th scope="col">Text</th>
              <th scope="col">{defaultIso}</th>
              {languages.map((l) => (
                <th key={l} scope="col">
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">
                  <span className="translations-kind">{KIND_NAMES[row.kind]}</span> {row.where}
                </th>
                <td lang={defaultIso}>{row.source}</td>
                {languages.map((l) => {
                  const k = cellKey(row.key, l);
                  return (
                    <td key={l} className={row.missing[l] ? 'missing' : undefined}>
                      <input
                        type="text"
                        lang={l}
                        aria-label={`${row.where} (${l})`}
                        aria-invalid={row.missing[l] || undefined}
                        title={row.missing[l] ? 'Missing' : undefined}
                        maxLength={row.max}
                        placeholder={row.fallbacks[l] ?? (row.missing[l] ? 'Missing' : '')}
                        readOnly={ctx.frozen}
                        value={drafts[k] ?? row.texts[l] ?? ''}
                        onChange={(e) => {
                          const text = e.currentTarget.value;
                          setDrafts((d) => ({ ...d, [k]: text }));
                        }}
                        onBlur={() => {
                          if (k in draftsRef.current) void saveCells([k]);
                        }}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
