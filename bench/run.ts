/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints
 * one table of figure, value, budget and verdict. Exits 1 when a budget is missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './harness';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows: (BenchRow & { pass: boolean })[] = [];
for (const file of files) {
  process.stderr.write(`bench: ${file}...\n`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<BenchRow[]> };
  try {
    for (const row of await mod.default()) {
      rows.push({ ...row, pass: row.informational === true || (row.lowerIsBetter ? row.value <= row.budget : row.value >= row.budget) });
    }
  } catch (error) {
    // One broken benchmark is a failed row; the others still run and print.
    process.stderr.write(`bench: ${file} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    rows.push({ figure: `${file} FAILED (see above)`, value: NaN, unit: '', budget: NaN, lowerIsBetter: true, pass: false });
  }
}

// Between 0 and 1 (a ratio, say) two decimals, so that 0.18 is not read as 0.2.
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n > 0 && n < 1 ? n.toFixed(2) : n.toFixed(1));
const table = [
  ['figure', 'value', 'budget', 'verdict'],
  ...rows.map((r) =>
    r.informational
      ? [r.figure, `${fmt(r.value)} ${r.unit}`, '—', 'reported']
      : [r.figure, `${fmt(r.value)} ${r.unit}`, `${r.lowerIsBetter ? '≤' : '≥'} ${fmt(r.budget)} ${r.unit}`, r.pass ? 'pass' : 'SHORT'],
  ),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, j) => cell.padEnd(widths[j]!)).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
const cpus = os.cpus();
console.log(
  `\n${new Date().toISOString()} on ${process.platform} ${process.arch}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}` +
    `, databases: ${process.env.BENCH_DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite (set BENCH_DATABASE_URL for PostgreSQL too)'}`,
);
process.exit(rows.every((r) => r.pass) ? 0 : 1);
