/**
 * The translations grid of a survey version: every text participants read (page titles,
 * questions, helper texts, options, the nine messages) as a row, one column per language; which
 * cells are missing (the same rule that blocks approval); the grid as CSV and back; and what a
 * set of changed cells writes. Only the texts of active pages and questions are rows: they are
 * the ones participants can reach, and the ones approval asks translations for.
 */
import { csvRow, parseCsv, unguardCsvCell } from '../csv';
import { normalizeIsoCode } from '../i18n/index';
import type { FieldConfiguration, PageTranslations } from '../model/survey';
import type { MissingTranslation } from '../model/surveyExport';
import { DEFAULT_SURVEY_MESSAGES, MESSAGE_TYPE_LABELS, SURVEY_MESSAGE_TYPES, type SurveyMessageType } from '../model/surveyMessage';
import { missingTranslations, type VersionMessage } from './translations';

export interface GridField {
  id: string;
  title: string;
  isActive: boolean;
  configuration: FieldConfiguration;
}
export interface GridPage {
  id: string;
  title: string;
  isActive: boolean;
  translations: PageTranslations;
  fields: readonly GridField[];
}
export interface GridMessage extends VersionMessage {
  id: string;
}

export interface GridRow {
  /** `${kind}:${id}`, the id as a missing translation names it; the CSV's first column. */
  key: string;
  kind: MissingTranslation['kind'];
  /** Where the text is, for people: 'Page 1 · Question 2 · Option Yes'. */
  where: string;
  /** The text in the default language. */
  source: string;
  /** Per language: the translation ('' when there is none). */
  texts: Record<string, string>;
  /** Per language: what participants read when the cell stays empty (a shipped message), if anything. */
  fallbacks: Record<string, string>;
  /** Per language: no translation, so approval is blocked. */
  missing: Record<string, boolean>;
  /** The longest text the server takes for this kind. */
  max: number;
}

export const GRID_LIMITS: Record<MissingTranslation['kind'], number> = { page: 255, question: 500, helperText: 1000, option: 500, message: 5000 };

/** The CSV's columns before the languages'. */
export const GRID_KEY_COLUMN = 'key';
export const GRID_WHERE_COLUMN = 'where';

export interface GridInput {
  pages: readonly GridPage[];
  messages: readonly GridMessage[];
  /** API iso codes of the survey's languages other than the default. */
  languages: readonly string[];
  defaultLanguage: string;
}

const reachable = (pages: readonly GridPage[]) => pages.filter((p) => p.isActive).map((p) => ({ ...p, fields: p.fields.filter((f) => f.isActive) }));

function messageText(messages: readonly VersionMessage[], type: SurveyMessageType, language: string): string | undefined {
  return messages.find((m) => m.messageType === type && m.language === language)?.message;
}

/** Every translatable text of the version, in page and question order, then the messages. */
export function translationRows({ pages, messages, languages, defaultLanguage }: GridInput): GridRow[] {
  const live = reachable(pages);
  const missing = new Set(
    missingTranslations(
      languages,
      live,
      live.flatMap((p) => p.fields),
      messages,
      defaultLanguage,
    ).map((m) => `${m.language}|${m.kind}:${m.id}`),
  );
  const rows: GridRow[] = [];
  const push = (
    kind: GridRow['kind'],
    id: string,
    where: string,
    source: string,
    text: (language: string) => string | undefined,
    fallback: (language: string) => string | undefined = () => undefined,
  ) => {
    const key = `${kind}:${id}`;
    const per = <T>(f: (language: string) => T) => Object.fromEntries(languages.map((l) => [l, f(l)]));
    rows.push({
      key,
      kind,
      where,
      source,
      texts: per((l) => text(l) ?? ''),
      fallbacks: Object.fromEntries(languages.flatMap((l) => (fallback(l) ? [[l, fallback(l)!]] : []))),
      missing: per((l) => missing.has(`${l}|${key}`)),
      max: GRID_LIMITS[kind],
    });
  };
  live.forEach((page, p) => {
    const at = `Page ${p + 1}`;
    push('page', page.id, at, page.title, (l) => page.translations[l]?.title);
    page.fields.forEach((field, q) => {
      const here = `${at} · Question ${q + 1}`;
      const own = field.configuration.translations;
      push('question', field.id, here, field.title, (l) => own[l]?.title);
      if (field.configuration.helperText?.trim())
        push('helperText', field.id, `${here} · Helper text`, field.configuration.helperText, (l) => own[l]?.helperText);
      for (const option of field.configuration.options) {
        push('option', `${field.id}:${option.value}`, `${here} · Option ${option.label}`, option.label, (l) => option.translations[l]);
      }
    });
  });
  for (const type of SURVEY_MESSAGE_TYPES) {
    const shipped = DEFAULT_SURVEY_MESSAGES[type] as Record<string, string | undefined>;
    const own = messageText(messages, type, defaultLanguage);
    // A version that keeps the shipped default-language text reads the shipped translation too.
    push(
      'message',
      type,
      `Message · ${MESSAGE_TYPE_LABELS[type]}`,
      own ?? shipped[defaultLanguage] ?? '',
      (l) => messageText(messages, type, l),
      (l) => (own === undefined ? shipped[l] : undefined),
    );
  }
  return rows;
}

/** The grid as CSV: key, where, the default language's text, then one column per language. */
export function translationsCsv(rows: readonly GridRow[], languages: readonly string[], defaultLanguage: string): string {
  const lines = [csvRow([GRID_KEY_COLUMN, GRID_WHERE_COLUMN, defaultLanguage, ...languages])];
  for (const row of rows) lines.push(csvRow([row.key, row.where, row.source, ...languages.map((l) => row.texts[l] ?? '')]));
  return `${lines.join('\r\n')}\r\n`;
}

/** One cell to write: the text of `key` in `language`. */
export interface CellChange {
  key: string;
  language: string;
  text: string;
}

export type GridImport = { ok: true; changes: CellChange[] } | { ok: false; errors: string[] };

/** At most this many problems are reported; the rest would only repeat them. */
const MAX_ERRORS = 20;

/**
 * Reads an exported (and translated) grid back. The header must be key, where, the default
 * language, then any of the survey's other languages once each; every row must name a text of
 * this version once, with its default-language text unchanged (otherwise the translation was
 * made for another text), and each translation must fit. An empty cell leaves the text as it is:
 * an import fills and corrects, it never erases. Any problem refuses the whole file, each named
 * by row (the header is row 1) and column, so nothing is written from a file with a mistake.
 */
export function readTranslationsCsv(text: string, rows: readonly GridRow[], languages: readonly string[], defaultLanguage: string): GridImport {
  const table = parseCsv(text).filter((cells) => cells.some((c) => c.trim() !== ''));
  const [header, ...body] = table;
  if (!header) return { ok: false, errors: ['The file is empty: it needs the header row key, where, ' + defaultLanguage + ', then the languages.'] };
  const errors: string[] = [];
  const names = header.map((h) => h.trim());
  const fixed = [GRID_KEY_COLUMN, GRID_WHERE_COLUMN, defaultLanguage];
  fixed.forEach((name, i) => {
    if ((names[i] ?? '').toLowerCase() !== name.toLowerCase()) errors.push(`Row 1, column ${i + 1}: the header must be '${name}', not '${names[i] ?? ''}'.`);
  });
  const columns: string[] = [];
  names.slice(fixed.length).forEach((name, i) => {
    const at = `Row 1, column ${i + fixed.length + 1}`;
    const language = name === '' ? '' : normalizeIsoCode(name);
    const known = languages.find((l) => l.toLowerCase() === language.toLowerCase());
    if (!known) errors.push(`${at}: '${name}' is not a language of this survey (${languages.join(', ') || 'it has none but ' + defaultLanguage}).`);
    else if (columns.includes(known)) errors.push(`${at}: the language '${name}' is there twice.`);
    columns.push(known ?? '');
  });
  if (errors.length) return { ok: false, errors };

  const byKey = new Map(rows.map((r) => [r.key, r]));
  const seen = new Map<string, number>();
  const changes: CellChange[] = [];
  body.forEach((cells, i) => {
    const line = i + 2;
    if (cells.length !== names.length) {
      errors.push(`Row ${line}: ${cells.length} cells where the header has ${names.length}.`);
      return;
    }
    const key = cells[0]!.trim();
    const row = byKey.get(key);
    if (!row) {
      errors.push(`Row ${line}, column ${GRID_KEY_COLUMN}: '${key}' is not a text of this survey version.`);
      return;
    }
    if (seen.has(key)) errors.push(`Row ${line}, column ${GRID_KEY_COLUMN}: '${key}' is also row ${seen.get(key)}.`);
    seen.set(key, line);
    if (unguardCsvCell(cells[2]!).trim() !== row.source.trim()) {
      errors.push(`Row ${line}, column ${defaultLanguage}: the text is not this version's ('${row.source.slice(0, 60)}'); export the grid again.`);
    }
    columns.forEach((language, c) => {
      const value = unguardCsvCell(cells[c + fixed.length]!).trim();
      if (value === '') return;
      if (value.length > row.max) errors.push(`Row ${line}, column ${language}: at most ${row.max} characters (${value.length}).`);
      else if (value !== row.texts[language]) changes.push({ key, language, text: value });
    });
  });
  return errors.length ? { ok: false, errors: errors.slice(0, MAX_ERRORS) } : { ok: true, changes };
}

/** What a set of cell changes writes: whole translation maps and configurations, and messages. */
export interface GridWrites {
  pages: { id: string; translations: PageTranslations }[];
  fields: { id: string; configuration: FieldConfiguration }[];
  messages: { id: string | null; messageType: SurveyMessageType; language: string; message: string }[];
}

/** The writes that put `changes` into the version, each page and question once. */
export function gridWrites(pages: readonly GridPage[], messages: readonly GridMessage[], changes: readonly CellChange[]): GridWrites {
  const pageOut = new Map<string, PageTranslations>();
  const fieldOut = new Map<string, FieldConfiguration>();
  const messageOut: GridWrites['messages'] = [];
  const fields = new Map(pages.flatMap((p) => p.fields.map((f) => [f.id, f] as const)));
  const configuration = (id: string) => fieldOut.get(id) ?? fields.get(id)?.configuration;
  for (const { key, language, text } of changes) {
    const cut = key.indexOf(':');
    const kind = key.slice(0, cut);
    const id = key.slice(cut + 1);
    if (kind === 'page') {
      const page = pages.find((p) => p.id === id);
      if (!page) continue;
      const current = pageOut.get(id) ?? page.translations;
      pageOut.set(id, { ...current, [language]: { ...current[language], title: text } });
    } else if (kind === 'question' || kind === 'helperText') {
      const config = configuration(id);
      if (!config) continue;
      const part = kind === 'question' ? 'title' : 'helperText';
      fieldOut.set(id, { ...config, translations: { ...config.translations, [language]: { ...config.translations[language], [part]: text } } });
    } else if (kind === 'option') {
      const split = id.indexOf(':');
      const fieldId = id.slice(0, split);
      const value = id.slice(split + 1);
      const config = configuration(fieldId);
      if (!config) continue;
      fieldOut.set(fieldId, {
        ...config,
        options: config.options.map((o) => (o.value === value ? { ...o, translations: { ...o.translations, [language]: text } } : o)),
      });
    } else if (kind === 'message' && (SURVEY_MESSAGE_TYPES as readonly string[]).includes(id)) {
      const messageType = id as SurveyMessageType;
      const existing = messages.find((m) => m.messageType === messageType && m.language === language);
      messageOut.push({ id: existing?.id ?? null, messageType, language, message: text });
    }
  }
  return {
    pages: [...pageOut].map(([id, translations]) => ({ id, translations })),
    fields: [...fieldOut].map(([id, configuration]) => ({ id, configuration })),
    messages: messageOut,
  };
}
