/**
 * `npm start` builds the admin and widget bundles when they are missing or older than their
 * sources, so a fresh clone needs no separate build step. It builds with the same vite configs
 * as `npm run build`, so the same size budgets (bundle-budgets.ts) stop it.
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
  // bundle-budgets.ts: the build checks the bundle's size, so a changed budget checks again.
  {
    config: 'vite.config.admin.ts',
    folder: 'admin',
    output: 'dist/admin/index.html',
    sources: ['admin', 'core', 'vite.config.admin.ts', 'bundle-budgets.ts', 'package.json'],
  },
  {
    config: 'vite.config.widget.ts',
    folder: 'widget',
    output: 'dist/widget/widget.js',
    sources: ['widget', 'core', 'vite.config.widget.ts', 'bundle-budgets.ts', 'package.json'],
  },
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
  // Vite keeps an existing NODE_ENV (vitest sets `test`), which would bundle React's development
  // build and skip the size budgets; what we serve and test is always the production build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const bundle of stale) {
      say(`building ${outputIn(root, distDir, bundle)} (missing or older than its sources)...`);
      await build({
        configFile: path.join(root, bundle.config),
        mode: 'production',
        logLevel: 'warn',
        ...(distDir ? { build: { outDir: path.join(distDir, bundle.folder), emptyOutDir: true } } : {}),
      });
    }
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
