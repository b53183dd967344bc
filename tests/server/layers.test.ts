/**
 * The server's layers, read from its import statements: the kit (request handling, database,
 * sign-in, audit, OpenAPI, storage, sealing, PDF, jobs) knows no area of the product; a route
 * file parses, authorizes, calls its area and serializes, so it never touches the database
 * schema; an area uses another area only through that area's index.ts; and the folders import
 * one another one way only, so every area stands above those it uses. Folders grow one way only
 * when something checks it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../../server/', import.meta.url));
const KIT = new Set(['errors', 'http', 'db', 'auth', 'audit', 'openapi', 'storage', 'security', 'pdf', 'jobs']);
// The start-up files compose the areas into the app (and the seed and the daily purges, the
// areas' data and jobs); they sit above both.
const TOP = new Set(['app.ts', 'main.ts', 'dev.ts', 'seed.ts', 'retention.ts']);
// Below everything: the settings, the log and the handler context every layer reads.
const BASE = new Set(['config.ts', 'context.ts', 'log.ts', 'bundles.ts']);

interface ServerFile {
  file: string; // relative to server/, with '/' separators
  imports: string[]; // server files it imports, the same way
}

function serverFiles(dir = SERVER): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' || entry.name === 'vendor' ? [] : serverFiles(full);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.mts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function readServer(): ServerFile[] {
  return serverFiles().map((full) => {
    const source = fs.readFileSync(full, 'utf8');
    const specifiers = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
    const imports = specifiers
      .map((s) => resolveImport(full, s))
      .filter((f): f is string => f !== null && f.startsWith(SERVER))
      .map((f) => path.relative(SERVER, f).split(path.sep).join('/'));
    return { file: path.relative(SERVER, full).split(path.sep).join('/'), imports };
  });
}

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : null);
const isArea = (file: string) => {
  const folder = folderOf(file);
  return folder !== null && !KIT.has(folder);
};
const isKit = (file: string) => {
  const folder = folderOf(file);
  return (folder !== null && KIT.has(folder)) || BASE.has(file);
};
const isRouteFile = (file: string) => /(^|\/)(routes|[\w-]+\.routes)\.ts$/.test(file);

// Route files that still hold their queries, until each moves them into its area's rule modules;
// the list only shrinks (a file that no longer needs its place here fails the test).
const QUERIES_STILL_IN_ROUTES = new Set<string>([]);

// Area modules beside the routes that shape HTTP answers themselves (the participant API's body
// reading, rate-limit headers, CORS refusals and the embed problems the widget prints); the list
// only shrinks.
const HTTP_HELPERS = new Set(['participant/api.ts', 'participant/cors.ts', 'participant/embedProblems.ts']);

const files = readServer();

describe('server layers', () => {
  it('finds the server and its areas', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(new Set(files.filter((f) => isArea(f.file)).map((f) => folderOf(f.file))).size).toBeGreaterThan(10);
  });

  it('the kit imports no area and nothing above it', () => {
    const upward = files.filter((f) => isKit(f.file)).flatMap((f) => f.imports.filter((i) => isArea(i) || TOP.has(i)).map((i) => `${f.file} -> ${i}`));
    expect(upward).toEqual([]);
  });

  it('route files import no database schema', () => {
    const importsSchema = (f: ServerFile) => f.imports.some((i) => i.startsWith('db/schema/'));
    const routeFiles = files.filter((f) => isRouteFile(f.file));
    expect(routeFiles.filter((f) => importsSchema(f) && !QUERIES_STILL_IN_ROUTES.has(f.file)).map((f) => f.file)).toEqual([]);
    expect(
      [...QUERIES_STILL_IN_ROUTES].filter((file) => !routeFiles.some((f) => f.file === file && importsSchema(f))),
      'no longer needs its place in the list',
    ).toEqual([]);
  });

  it('an area uses another area only through its index.ts', () => {
    const internals = files
      .filter((f) => isArea(f.file))
      .flatMap((f) =>
        f.imports.filter((i) => isArea(i) && folderOf(i) !== folderOf(f.file) && i !== `${folderOf(i)}/index.ts`).map((i) => `${f.file} -> ${i}`),
      );
    expect(internals).toEqual([]);
  });

  it("an area's rules throw domain errors, never the HTTP exception", () => {
    const rules = files.filter((f) => isArea(f.file) && !isRouteFile(f.file));
    expect(rules.filter((f) => f.imports.includes('http/errors.ts') && !HTTP_HELPERS.has(f.file)).map((f) => f.file)).toEqual([]);
    expect(
      [...HTTP_HELPERS].filter((file) => !rules.some((f) => f.file === file && f.imports.includes('http/errors.ts'))),
      'no longer needs its place in the list',
    ).toEqual([]);
    // The domain errors know nothing of HTTP, nor of anything outside their folder.
    expect(files.filter((f) => folderOf(f.file) === 'errors').flatMap((f) => f.imports.filter((i) => folderOf(i) !== 'errors'))).toEqual([]);
  });

  it('the schema files import one another one way only', () => {
    const schema = new Map(files.filter((f) => f.file.startsWith('db/schema/')).map((f) => [f.file, f.imports.filter((i) => i.startsWith('db/schema/'))]));
    expect(schema.size).toBeGreaterThan(10);
    const circles: string[] = [];
    const walk = (file: string, trail: string[]): void => {
      if (trail.includes(file)) return void circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      for (const next of schema.get(file) ?? []) walk(next, [...trail, file]);
    };
    for (const file of schema.keys()) walk(file, []);
    expect(circles).toEqual([]);
  });

  it('the folders import one another one way only', () => {
    // A folder (or a file at the server's top) is one room: the rooms must form no circle, or
    // one of them would need something from a room above it. A lower room that must set a higher
    // one going takes it as a parameter, which the start-up files compose.
    const roomOf = (file: string) => folderOf(file) ?? file;
    const uses = new Map<string, Map<string, string>>();
    for (const f of files) {
      for (const i of f.imports) {
        const [from, to] = [roomOf(f.file), roomOf(i)];
        if (from === to) continue;
        if (!uses.has(from)) uses.set(from, new Map());
        if (!uses.get(from)!.has(to)) uses.get(from)!.set(to, `${f.file} -> ${i}`);
      }
    }
    const circles = new Set<string>();
    const done = new Set<string>();
    const walk = (room: string, trail: string[]): void => {
      const at = trail.indexOf(room);
      if (at >= 0) {
        const circle = [...trail.slice(at), room];
        circles.add(
          circle
            .slice(1)
            .map((to, k) => uses.get(circle[k]!)!.get(to))
            .join(', '),
        );
        return;
      }
      if (done.has(room)) return;
      for (const next of uses.get(room)?.keys() ?? []) walk(next, [...trail, room]);
      done.add(room);
    };
    for (const room of uses.keys()) walk(room, []);
    expect([...circles]).toEqual([]);
  });

  it('no area imports the start-up files', () => {
    const upward = files.filter((f) => isArea(f.file)).flatMap((f) => f.imports.filter((i) => TOP.has(i)).map((i) => `${f.file} -> ${i}`));
    expect(upward).toEqual([]);
  });
});
