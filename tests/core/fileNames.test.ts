/**
 * One file-name convention per part of the product (docs/layout.md, "File names"): folders are
 * kebab-case; files are camelCase; a React or Preact component's module may be PascalCase
 * (.tsx); the server adds a route file's `.routes` role and names an error class's module for
 * the class; an admin folder's stylesheet is named for its folder. This reads the git-tracked
 * tree of admin/, core/, widget/ and server/ (every part, not only core's).
 */
import { execFileSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const PARTS = ['admin', 'core', 'widget', 'server'] as const;
type Part = (typeof PARTS)[number];

const CAMEL = '[a-z][a-zA-Z0-9]*';
const PASCAL = '[A-Z][a-zA-Z0-9]*';
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** What a file's name may look like in each part; `folder` is the name of the folder it is in. */
const RULES: Record<Part, (file: string, folder: string) => boolean> = {
  admin: (file, folder) => new RegExp(`^${CAMEL}\\.tsx?$|^${PASCAL}\\.tsx$`).test(file) || file === `${folder}.css` || file === 'styles.css',
  core: (file) => new RegExp(`^${CAMEL}\\.ts$`).test(file),
  widget: (file) => new RegExp(`^${CAMEL}\\.tsx?$|^${PASCAL}\\.tsx$|^${CAMEL}\\.css$`).test(file),
  server: (file, folder) =>
    new RegExp(`^${CAMEL}(\\.routes)?\\.ts$|^${CAMEL}\\.(m?js|d\\.mts)$`).test(file) || (folder === 'errors' && new RegExp(`^${PASCAL}\\.ts$`).test(file)),
};

/** Not the product's own names: generated, vendored, a tool's or the browser's fixed names. */
const NOT_NAMED_HERE = [/^server\/db\/migrations\//, /^server\/openapi\/vendor\//, /\/tsconfig\.json$/, /^admin\/index\.html$/, /^admin\/public\//];

/**
 * Server files still named the old way, to be renamed camelCase (with their importers and the
 * docs that name them) once nobody else is editing around them. The list only shrinks.
 */
const KNOWN_EXCEPTIONS = [
  'server/build-server.d.mts',
  'server/build-server.mjs',
  'server/db/schema/app-settings.ts',
  'server/db/schema/contact-fields.ts',
  'server/db/schema/legacy-surveys.ts',
  'server/db/schema/rate-limits.ts',
  'server/db/schema/rms-providers.ts',
];

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...PARTS], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path && !NOT_NAMED_HERE.some((pattern) => pattern.test(path)));

const partOf = (path: string) => path.split('/')[0] as Part;
const breaksRule = (path: string) => !RULES[partOf(path)](basename(path), basename(dirname(path)));

describe('file names', () => {
  it('reads the files of every part', () => {
    for (const part of PARTS) expect(tracked.filter((path) => partOf(path) === part).length).toBeGreaterThan(10);
  });

  it("names every file by its part's convention", () => {
    expect(tracked.filter((path) => breaksRule(path) && !KNOWN_EXCEPTIONS.includes(path))).toEqual([]);
  });

  it('names every folder in kebab-case', () => {
    const folders = new Set(tracked.flatMap((path) => dirname(path).split('/')));
    expect([...folders].filter((folder) => !KEBAB.test(folder))).toEqual([]);
  });

  it('lists as known exceptions only files that exist and still break the convention', () => {
    expect(KNOWN_EXCEPTIONS.filter((path) => !tracked.includes(path) || !breaksRule(path))).toEqual([]);
  });
});
