/**
 * The admin's imports run one way (docs/layout.md): a file may import only from its own folder
 * or from a folder below it. This reads every source file's relative imports as text.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsWithin, sourceFiles } from '../support/sourceImports';

const ADMIN = join(__dirname, '../../admin');

/** From the entry down; a name is a top-level file (without extension) or folder of admin/. */
const ORDER = ['main', 'providers', 'router', 'layouts', 'sections', 'components', 'hooks', 'state', 'routing', 'access', 'styles'];

/** The part of admin/ a path belongs to: its first folder, or the file's name without extension. */
const partOf = (path: string) =>
  relative(ADMIN, path)
    .split(/[\\/]/)[0]!
    .replace(/\.[a-z]+$/, '');

const adminImports = () => importsWithin(ADMIN);

describe('admin import layers', () => {
  it('reads the imports of every part of the admin', () => {
    const parts = new Set(sourceFiles(ADMIN).map(partOf));
    // A new top-level file or folder must be given its place in ORDER (and in docs/layout.md).
    expect([...parts].filter((part) => !ORDER.includes(part))).toEqual([]);
    const imports = adminImports();
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.some(({ from, to }) => partOf(from) === 'sections' && partOf(to) === 'routing')).toBe(true);
  });

  it('has no import from a lower part up to a higher one', () => {
    const upward = adminImports()
      .filter(({ from, to }) => ORDER.indexOf(partOf(to)) < ORDER.indexOf(partOf(from)))
      .map(({ from, to }) => `${relative(ADMIN, from)} -> ${relative(ADMIN, to)}`);
    expect(upward).toEqual([]);
  });
});
