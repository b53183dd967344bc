/**
 * Front-end size budgets: widget.js and the admin's first load (login screen), gzipped, from
 * a build with the project's own vite configs. `npm run build` enforces the same budgets; here
 * an oversized bundle is a short row in the table instead of a failed build.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Rollup } from 'vite';
import { BUDGETS, measureAdminFirstLoad, measureWidget, type OutputChunkLike } from '../bundle-budgets';
import type { BenchRow } from './harness';

const root = path.resolve(import.meta.dirname, '..');

/** The parts of the widget's files, by where each module comes from. */
const WIDGET_PARTS: [string, RegExp][] = [
  ['Preact', /node_modules\/preact\//],
  ['signals', /node_modules\/@preact\/signals/],
  ['core', /\/core\//],
  ['UI and CSS', /\/widget\//],
];

/** Each file's parts, each part's code gzipped on its own: the shares overlap a little less than they add up to. */
function widgetShares(chunks: Rollup.OutputChunk[]): string {
  return chunks
    .filter((c) => c.type === 'chunk')
    .map((file) => {
      const parts = WIDGET_PARTS.map(([name, pattern]) => {
        const code = Object.entries(file.modules)
          .filter(([id]) => pattern.test(id.replaceAll('\\', '/')))
          .map(([, m]) => m.code ?? '')
          .join('\n');
        return code ? `${name} ${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} kB` : '';
      });
      return `${file.fileName} parts (each gzipped alone): ${parts.filter(Boolean).join(', ')}`;
    })
    .join('\n');
}

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
    const widgetChunks = await chunksOf('vite.config.widget.ts');
    const [first, whole] = measureWidget(widgetChunks);
    console.log(widgetShares(widgetChunks as Rollup.OutputChunk[]));
    const admin = measureAdminFirstLoad(await chunksOf('vite.config.admin.ts'));
    return [
      {
        figure: `widget before the first question (${first.files.length} files), gzipped`,
        value: first.bytes / 1024,
        unit: 'kB',
        budget: BUDGETS.widgetFirstQuestionBytes / 1024,
        lowerIsBetter: true,
      },
      {
        figure: `widget, whole run (${whole.files.length} files), gzipped`,
        value: whole.bytes / 1024,
        unit: 'kB',
        budget: BUDGETS.widgetBytes / 1024,
        lowerIsBetter: true,
      },
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
