/**
 * `npm start` builds the admin and widget bundles when they are missing or older than their
 * sources, so a fresh clone needs no separate build step.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Bundle {
  config: string;
  /** Output folder under the dist folder, and the file whose age stands for the bundle. */
  folder: string;
  output: string;
  sources: string[];
}

const BUNDLES: Bundle[] = [
  { config: 'vite.config.admin.ts', folder: 'admin', output: 'dist/admin/index.html', sources: ['admin', 'core', 'vite.config.admin.ts', 'package.json'] },
  { config: 'vite.config.widget.ts', folder: 'widget', output: 'dist/widget/widget.js', sources: ['widget', 'core', 'vite.config.widget.ts', 'package.json'] },
];

const outputIn = (root: string, distDir: string | undefined, b: Bundle) =>
  distDir ? path.join(distDir, b.output.replace(/^dist\//, '')) : path.join(root, b.output);

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function staleBundles(root: string, distDir?: string): Bundle[] {
  return BUNDLES.filter((b) => {
    const out = outputIn(root, distDir, b);
    if (!fs.existsSync(out)) return true;
    const built = fs.statSync(out).mtimeMs;
    return b.sources.some((s) => newestMtime(path.join(root, s)) > built);
  });
}

/** Builds what is stale, into `distDir` when given (tests use a folder of their own). */
export async function ensureBuilt(root: string, say: (msg: string) => void, distDir?: string): Promise<void> {
  const stale = staleBundles(root, distDir);
  if (stale.length === 0) return;
  const { build } = await import('vite');
  for (const bundle of stale) {
    say(`building ${outputIn(root, distDir, bundle)} (missing or older than its sources)...`);
    await build({
      configFile: path.join(root, bundle.config),
      logLevel: 'warn',
      ...(distDir ? { build: { outDir: path.join(distDir, bundle.folder), emptyOutDir: true } } : {}),
    });
  }
}
