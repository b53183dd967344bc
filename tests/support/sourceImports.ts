/** The imports of a part's source files, read as text: what the layer tests check. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Every .ts and .tsx file below `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// `import … from`, `export … from`, a bare `import '…'` and `import('…')`; relative or @core/.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]((?:\.|@core\/)[^'"]+)['"]|(?:^|\n)\s*import\s*\(?\s*['"]((?:\.|@core\/)[^'"]+)['"]|\bimport\(\s*['"]((?:\.|@core\/)[^'"]+)['"]\s*\)/g;

/**
 * Each import of a file below `root` that names another file below it, as resolved paths
 * (without extension); `@core/` paths are resolved against `core`, when given.
 */
export function importsWithin(root: string, core?: string): { from: string; to: string }[] {
  return sourceFiles(root).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => (match[1] ?? match[2] ?? match[3])!)
      .flatMap((spec) => {
        if (!spec.startsWith('@core/')) return [normalize(join(dirname(file), spec))];
        return core ? [join(core, spec.slice('@core/'.length))] : [];
      })
      .filter((target) => !relative(root, target).startsWith('..'))
      .map((target) => ({ from: file, to: target })),
  );
}

/** The part of `root` a path belongs to: its first folder below `root`, or a top-level file's name without extension. */
export const partOf = (root: string, path: string): string =>
  relative(root, path)
    .split(/[\\/]/)[0]!
    .replace(/\.[a-z]+$/, '');

/** The parts of `root` holding a source file that `placed` does not name: each must be given its place. */
export const unplacedParts = (root: string, placed: readonly string[]): string[] =>
  [...new Set(sourceFiles(root).map((file) => partOf(root, file)))].filter((part) => !placed.includes(part));

/** Of `imports` below `root`, those `climbs` says go up from the importing part to the imported one, as `from -> to`. */
export const upwardImports = (root: string, imports: { from: string; to: string }[], climbs: (from: string, to: string) => boolean): string[] =>
  imports.filter(({ from, to }) => climbs(partOf(root, from), partOf(root, to))).map(({ from, to }) => `${relative(root, from)} -> ${relative(root, to)}`);
