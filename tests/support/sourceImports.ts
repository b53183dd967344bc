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
