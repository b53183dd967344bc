/**
 * core/'s imports run one way (docs/layout.md): the API clients over the participant contract,
 * over the survey runner, over the models, over validation, texts and the wire formats. A file
 * may import from its own part or a part below it. This reads every source file's imports as text.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsWithin, sourceFiles } from '../support/sourceImports';

const CORE = join(__dirname, '../../core');

/** From the top down; a name is a folder of core/ or a top-level file without extension. */
const ORDER = ['api', 'participant', 'survey', 'model', 'validation', 'i18n', 'jsonapi', 'csv', 'time'];
/** Parts on one floor may import each other. */
const FLOOR: Record<string, number> = { api: 5, participant: 4, survey: 3, model: 2, validation: 1, i18n: 1, jsonapi: 1, csv: 1, time: 1 };

const partOf = (path: string) =>
  relative(CORE, path)
    .split(/[\\/]/)[0]!
    .replace(/\.[a-z]+$/, '');

const coreImports = () => importsWithin(CORE, CORE);

describe('core import floors', () => {
  it('reads the imports of every part of core', () => {
    const parts = new Set(sourceFiles(CORE).map(partOf));
    // A new folder or top-level file must be given its floor here (and in docs/layout.md).
    expect([...parts].filter((part) => !ORDER.includes(part))).toEqual([]);
    const imports = coreImports();
    expect(imports.length).toBeGreaterThan(100);
    expect(imports.some(({ from, to }) => partOf(from) === 'participant' && partOf(to) === 'model')).toBe(true);
  });

  it('has no import from a lower floor up to a higher one', () => {
    const upward = coreImports()
      .filter(({ from, to }) => FLOOR[partOf(to)]! > FLOOR[partOf(from)]!)
      .map(({ from, to }) => `${relative(CORE, from)} -> ${relative(CORE, to)}`);
    expect(upward).toEqual([]);
  });
});
