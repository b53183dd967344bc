/**
 * The facts the About screen shows, read where they live: the product's name and version from
 * package.json, the build time from the served admin bundle, the database's kind and version
 * from the database itself, and each runtime dependency's licence from its own package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { About, DependencyLicence } from '@core/model/about';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const PackageFile = v.object({
  name: v.string(),
  version: v.string(),
  description: v.optional(v.string(), ''),
  dependencies: v.optional(v.record(v.string(), v.string()), {}),
  homepage: v.optional(v.string()),
  // Old packages name theirs as { type } or in a `licenses` list.
  license: v.optional(v.union([v.string(), v.object({ type: v.string() })])),
  licenses: v.optional(v.array(v.object({ type: v.string() }))),
});

function readPackage(file: string) {
  return v.parse(PackageFile, JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** "PostgreSQL 18.6 (PGlite 0.5.16) on wasm32…" → PGlite, "PostgreSQL 18.6 (PGlite 0.5.16)". */
export function databaseOf(version: string): Pick<About, 'databaseKind' | 'databaseVersion'> {
  const named = /^(PostgreSQL [\d.]+(?:\s*\(PGlite [^)]+\))?)/.exec(version)?.[1] ?? version.split(' on ')[0] ?? version;
  return { databaseKind: /PGlite/.test(version) ? 'PGlite' : 'PostgreSQL', databaseVersion: named };
}

export async function aboutFacts(db: Db, distDir: string): Promise<Omit<About, 'id'>> {
  const own = readPackage(path.join(ROOT, 'package.json'));
  const [row] = rowsOf(await db.execute(sql`select version() as version`));
  let buildTime: string | null = null;
  try {
    buildTime = fs.statSync(path.join(distDir, 'admin', 'index.html')).mtime.toISOString();
  } catch {
    // No admin bundle is served (development): there is no build to date.
  }
  return { productName: own.name, version: own.version, description: own.description, buildTime, ...databaseOf(String(row?.version ?? '')) };
}

let licences: DependencyLicence[] | undefined;

/** The licence of each package the product runs with (package.json dependencies), by name; read once. */
export function dependencyLicences(): DependencyLicence[] {
  return (licences ??= Object.keys(readPackage(path.join(ROOT, 'package.json')).dependencies)
    .sort()
    .map((name) => {
      try {
        const pkg = readPackage(path.join(ROOT, 'node_modules', name, 'package.json'));
        const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? pkg.licenses?.map((l) => l.type).join(' OR ') ?? 'Not declared');
        return { id: name, name, version: pkg.version, licence, homepage: pkg.homepage ?? null };
      } catch {
        return { id: name, name, version: '', licence: 'Not installed', homepage: null };
      }
    }));
}
