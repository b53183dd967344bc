/**
 * Front-end size budgets: widget.js and the admin's first load (login screen), gzipped, from
 * a build with the project's own vite configs. `npm run build` enforces the same budgets; here
 * an oversized bundle is a short row in the table instead of a failed build.
 */
import path from 'node:path';
import type { Rollup } from 'vite';
import { BUDGETS, measureAdminFirstLoad, measureWidget, type OutputChunkLike } from '../bundle-budgets';
import type { BenchRow } from './harness';

const root = path.resolve(import.meta.dirname, '..');

async function chunksOf(config: string): Promise<OutputChunkLike[]> {
  const { build } = await import('vite');
  const result = await build({ configFile: path.join(root, config), logLevel: 'warn', build: { write: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output) as OutputChunkLike[];
}

export default async function bundles(): Promise<BenchRow[]> {
  const before = process.env.BUNDLE_BUDGETS;
  process.env.BUNDLE_BUDGETS = 'report';
  try {
    const widget = measureWidget(await chunksOf('vite.config.widget.ts'));
    const admin = measureAdminFirstLoad(await chunksOf('vite.config.admin.ts'));
    return [
      { figure: 'widget.js, gzipped', value: widget.bytes / 1024, unit: 'kB', budget: BUDGETS.widgetBytes / 1024, lowerIsBetter: true },
      {
        figure: `admin first load (login screen: ${admin.files.length} JS files), gzipped`,
        value: admin.bytes / 1024,
        unit: 'kB',
        budget: BUDGETS.adminFirstLoadBytes / 1024,
        lowerIsBetter: true,
      },
    ];
  } finally {
    if (before === undefined) delete process.env.BUNDLE_BUDGETS;
    else process.env.BUNDLE_BUDGETS = before;
  }
}
