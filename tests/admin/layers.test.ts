/**
 * The admin's imports run one way (docs/layout.md): a file may import only from its own folder
 * or from a folder below it. This reads every source file's relative imports as text.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsWithin, partOf, unplacedParts, upwardImports } from '../support/sourceImports';

const ADMIN = join(__dirname, '../../admin');

/** From the entry down; a name is a top-level file (without extension) or folder of admin/. */
const ORDER = ['main', 'providers', 'router', 'layouts', 'sections', 'components', 'hooks', 'state', 'routing', 'access', 'styles'];

const adminImports = () => importsWithin(ADMIN);

describe('admin import layers', () => {
  it('reads the imports of every part of the admin', () => {
    // A new top-level file or folder must be given its place in ORDER (and in docs/layout.md).
    expect(unplacedParts(ADMIN, ORDER)).toEqual([]);
    const imports = adminImports();
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.some(({ from, to }) => partOf(ADMIN, from) === 'sections' && partOf(ADMIN, to) === 'routing')).toBe(true);
  });

  it('has no import from a lower part up to a higher one', () => {
    expect(upwardImports(ADMIN, adminImports(), (from, to) => ORDER.indexOf(to) < ORDER.indexOf(from))).toEqual([]);
  });
});
