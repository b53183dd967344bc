import { describe, expect, it } from 'vitest';
import { csvRow, parseCsv, unguardCsvCell } from '@core/csv';
import { gridWrites, readTranslationsCsv, translationRows, translationsCsv, type GridInput, type GridPage } from '@core/survey/translationGrid';
import { fieldConfig } from '../support/fieldConfig';

const option = (label: string, value: string, translations: Record<string, string> = {}) => ({
  label,
  value,
  translations,
  isDisqualified: false,
  transition: null,
});

const pages: GridPage[] = [
  {
    id: '1',
    title: 'About you',
    isActive: true,
    translations: { es: { title: 'Sobre usted' } },
    fields: [
      {
        id: '10',
        title: 'Smoker?',
        isActive: true,
        configuration: fieldConfig({
          helperText: 'Any tobacco',
          translations: { es: { title: '¿Fuma?' } },
          options: [option('Yes', 'yes', { es: 'Sí' }), option('No', 'no')],
        }),
      },
      { id: '11', title: 'Hidden', isActive: false, configuration: fieldConfig() },
    ],
  },
  { id: '2', title: 'Gone', isActive: false, translations: {}, fields: [{ id: '20', title: 'Unreachable', isActive: true, configuration: fieldConfig() }] },
];
const input: GridInput = {
  pages,
  messages: [{ id: 'm1', messageType: 'not_qualified_consent', language: 'en', message: 'Sorry.' }],
  languages: ['es'],
  defaultLanguage: 'en',
};

describe('translations grid', () => {
  it('has a row per reachable text with its translations, missing cells marked as approval counts them', () => {
    const rows = translationRows(input);
    expect(rows.slice(0, 5).map((r) => [r.key, r.where, r.source, r.texts.es, r.missing.es])).toEqual([
      ['page:1', 'Page 1', 'About you', 'Sobre usted', false],
      ['question:10', 'Page 1 · Question 1', 'Smoker?', '¿Fuma?', false],
      ['helperText:10', 'Page 1 · Question 1 · Helper text', 'Any tobacco', '', true],
      ['option:10:yes', 'Page 1 · Question 1 · Option Yes', 'Yes', 'Sí', false],
      ['option:10:no', 'Page 1 · Question 1 · Option No', 'No', '', true],
    ]);
    expect(rows.some((r) => r.key === 'question:11' || r.key === 'page:2')).toBe(false);
    const messages = rows.filter((r) => r.kind === 'message');
    expect(messages).toHaveLength(9);
    // Own English text: the shipped Spanish no longer fits it, so the Spanish is missing.
    const own = messages.find((r) => r.key === 'message:not_qualified_consent')!;
    expect([own.source, own.missing.es, own.fallbacks.es]).toEqual(['Sorry.', true, undefined]);
    const shipped = messages.find((r) => r.key === 'message:completed_contact_form')!;
    expect(shipped.missing.es).toBe(false);
    expect(shipped.fallbacks.es).toMatch(/^¡Gracias!/);
  });

  it('exports formula-safe CSV and reads it back unchanged', () => {
    const rows = translationRows({ ...input, pages: [{ ...pages[0]!, translations: { es: { title: '=HYPERLINK("x")' } } }] });
    const csv = translationsCsv(rows, ['es'], 'en');
    const table = parseCsv(csv);
    expect(table[0]).toEqual(['key', 'where', 'en', 'es']);
    expect(table[1]).toEqual(['page:1', 'Page 1', 'About you', `'=HYPERLINK("x")`]);
    expect(readTranslationsCsv(csv, rows, ['es'], 'en')).toEqual({ ok: true, changes: [] });
    expect(unguardCsvCell("'+1")).toBe('+1');
    expect(unguardCsvCell("'plain")).toBe("'plain");
  });

  it('imports the filled cells, leaving empty ones as they are', () => {
    const rows = translationRows(input);
    const csv = [
      csvRow(['key', 'where', 'en', 'ES']),
      csvRow(['option:10:no', '', 'No', 'No (es)']),
      csvRow(['helperText:10', 'x', 'Any tobacco', '-tabaco']),
      csvRow(['page:1', '', 'About you', '']),
    ].join('\n');
    const read = readTranslationsCsv(csv, rows, ['es'], 'en');
    expect(read).toEqual({
      ok: true,
      changes: [
        { key: 'option:10:no', language: 'es', text: 'No (es)' },
        { key: 'helperText:10', language: 'es', text: '-tabaco' },
      ],
    });
  });

  it('refuses a file with any mistake, naming row and column', () => {
    const rows = translationRows(input);
    const read = (lines: unknown[][]) => readTranslationsCsv(lines.map(csvRow).join('\n'), rows, ['es'], 'en');
    expect(read([['id', 'where', 'en', 'fr']])).toEqual({
      ok: false,
      errors: ["Row 1, column 1: the header must be 'key', not 'id'.", "Row 1, column 4: 'fr' is not a language of this survey (es)."],
    });
    expect(read([['key', 'where', 'en', 'es', 'es']])).toEqual({ ok: false, errors: ["Row 1, column 5: the language 'es' is there twice."] });
    const bad = read([
      ['key', 'where', 'en', 'es'],
      ['page:1', '', 'About you', 'Sobre ti'],
      ['page:9', '', 'X', 'Y'],
      ['question:10', '', 'Smoker now?', 'Fuma'],
      ['page:1', '', 'About you', 'Otra'],
      ['option:10:no', '', 'No', 'x'.repeat(501)],
      ['option:10:yes', ''],
    ]);
    expect(bad).toEqual({
      ok: false,
      errors: [
        "Row 3, column key: 'page:9' is not a text of this survey version.",
        "Row 4, column en: the text is not this version's ('Smoker?'); export the grid again.",
        "Row 5, column key: 'page:1' is also row 2.",
        'Row 6, column es: at most 500 characters (501).',
        'Row 7: 2 cells where the header has 4.',
      ],
    });
    expect(readTranslationsCsv('', rows, ['es'], 'en').ok).toBe(false);
  });

  it('writes each page and question once, with the whole maps, and messages by whether they exist', () => {
    const writes = gridWrites(pages, input.messages, [
      { key: 'page:1', language: 'es', text: 'Acerca de usted' },
      { key: 'helperText:10', language: 'es', text: 'Tabaco' },
      { key: 'option:10:no', language: 'es', text: 'No' },
      { key: 'message:not_qualified_consent', language: 'es', text: 'Lo siento.' },
      { key: 'message:not_qualified_consent', language: 'en', text: 'Sorry!' },
    ]);
    expect(writes.pages).toEqual([{ id: '1', translations: { es: { title: 'Acerca de usted' } } }]);
    expect(writes.fields).toHaveLength(1);
    const written = writes.fields[0]!.configuration;
    expect(written.translations).toEqual({ es: { title: '¿Fuma?', helperText: 'Tabaco' } });
    expect(written.options.map((o) => o.translations)).toEqual([{ es: 'Sí' }, { es: 'No' }]);
    expect(written.helperText).toBe('Any tobacco');
    expect(writes.messages).toEqual([
      { id: null, messageType: 'not_qualified_consent', language: 'es', message: 'Lo siento.' },
      { id: 'm1', messageType: 'not_qualified_consent', language: 'en', message: 'Sorry!' },
    ]);
  });
});
