/**
 * core/'s imports run one way (docs/layout.md): the API clients over the participant contract,
 * over the survey runner, over the models, over validation, texts and the wire formats. A file
 * may import from its own part or a part below it. This reads every source file's imports as text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = join(__dirname, '../../core');

/** From the top down; a name is a folder of core/ or a top-level file without extension. */
const ORDER = ['api', 'participant', 'oform', 'model', 'validation', 'i18n', 'jsonapi', 'csv'];
/** Parts on one floor may import each other. */
const FLOOR: Record<string, number> = { api: 5, participant: 4, oform: 3, model: 2, validation: 1, i18n: 1, jsonapi: 1, csv: 1 };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const partOf = (path: string) =>
  relative(CORE, path)
    .split(/[\\/]/)[0]!
    .replace(/\.[a-z]+$/, '');

// `import … from`, `export … from`, a bare `import '…'` and `import('…')`; relative or @core/.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]((?:\.|@core\/)[^'"]+)['"]|(?:^|\n)\s*import\s*\(?\s*['"]((?:\.|@core\/)[^'"]+)['"]|\bimport\(\s*['"]((?:\.|@core\/)[^'"]+)['"]\s*\)/g;

function coreImports(): { from: string; to: string }[] {
  return sources(CORE).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => (match[1] ?? match[2] ?? match[3])!)
      .map((spec) => (spec.startsWith('@core/') ? join(CORE, spec.slice('@core/'.length)) : normalize(join(dirname(file), spec))))
      .filter((target) => !relative(CORE, target).startsWith('..'))
      .map((target) => ({ from: file, to: target })),
  );
}

describe('core import floors', () => {
  it('reads the imports of every part of core', () => {
    const parts = new Set(sources(CORE).map(partOf));
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
