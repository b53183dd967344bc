/**
 * `npm start` builds the admin and widget bundles when they are missing or older than their
 * sources, so a fresh clone needs no separate build step.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Bundle {
  config: string;
  output: string;
  sources: string[];
}

const BUNDLES: Bundle[] = [
  { config: 'vite.config.admin.ts', output: 'dist/admin/index.html', sources: ['admin', 'core', 'vite.config.admin.ts', 'package.json'] },
  { config: 'vite.config.widget.ts', output: 'dist/widget/widget.js', sources: ['widget', 'core', 'vite.config.widget.ts', 'package.json'] },
];

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

export function staleBundles(root: string): Bundle[] {
  return BUNDLES.filter((b) => {
    const out = path.join(root, b.output);
    if (!fs.existsSync(out)) return true;
    const built = fs.statSync(out).mtimeMs;
    return b.sources.some((s) => newestMtime(path.join(root, s)) > built);
  });
}

export async function ensureBuilt(root: string, say: (msg: string) => void): Promise<void> {
  const stale = staleBundles(root);
  if (stale.length === 0) return;
  const { build } = await import('vite');
  for (const bundle of stale) {
    say(`building ${bundle.output} (missing or older than its sources)...`);
    await build({ configFile: path.join(root, bundle.config), logLevel: 'warn' });
  }
}
