/**
 * core/'s imports run one way (docs/layout.md): the API clients over the participant contract,
 * over the survey runner, over the models, over validation, texts and the wire formats. A file
 * may import from its own part or a part below it. This reads every source file's imports as text.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsWithin, partOf, unplacedParts, upwardImports } from '../support/sourceImports';

const CORE = join(__dirname, '../../core');

/** From the top down; a name is a folder of core/ or a top-level file without extension. */
const ORDER = ['api', 'participant', 'survey', 'model', 'validation', 'i18n', 'jsonapi', 'csv', 'time'];
/** Parts on one floor may import each other. */
const FLOOR: Record<string, number> = { api: 5, participant: 4, survey: 3, model: 2, validation: 1, i18n: 1, jsonapi: 1, csv: 1, time: 1 };

const coreImports = () => importsWithin(CORE, CORE);

describe('core import floors', () => {
  it('reads the imports of every part of core', () => {
    // A new folder or top-level file must be given its floor here (and in docs/layout.md).
    expect(unplacedParts(CORE, ORDER)).toEqual([]);
    const imports = coreImports();
    expect(imports.length).toBeGreaterThan(100);
    expect(imports.some(({ from, to }) => partOf(CORE, from) === 'participant' && partOf(CORE, to) === 'model')).toBe(true);
  });

  it('has no import from a lower floor up to a higher one', () => {
    expect(upwardImports(CORE, coreImports(), (from, to) => FLOOR[to]! > FLOOR[from]!)).toEqual([]);
  });
});
