/**
 * The admin's styles sit beside what uses them (docs/layout.md): a class only one folder's files
 * use is styled in that folder's own CSS file, which those files import; admin/styles.css keeps
 * the theme, the reset and what several folders share. This reads the sources as text: a class
 * is "used" by a file whose string literals name it (or whose className template builds it).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ADMIN = join(__dirname, '../../admin');
const SHARED = join(ADMIN, 'styles.css');
/** The shared stylesheet stays small: past this, a folder's classes have crept back in. */
const SHARED_MAX_LINES = 700;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

const all = files(ADMIN);
const sources = all.filter((f) => /\.(tsx?|html)$/.test(f));
const stylesheets = all.filter((f) => f.endsWith('.css'));
const folderSheets = stylesheets.filter((f) => f !== SHARED);

const STRING = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/** The words a source's strings hold, and the `name-${…}` families its className templates build. */
function wordsOf(file: string): { words: Set<string>; families: string[] } {
  // Comments are prose, not class names; import paths are not either.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
    .replace(/<!--[\s\S]*?-->/g, '');
  const words = new Set<string>();
  const families: string[] = [];
  for (const match of text.matchAll(STRING)) {
    const before = text.slice(Math.max(0, match.index - 20), match.index);
    if (/(?:\bfrom|\bimport\(?)\s*$/.test(before)) continue;
    const buildsClass = /className=\{\s*$/.test(before);
    for (const word of match[0].slice(1, -1).matchAll(/[A-Za-z_][\w-]*(\$\{)?/g)) {
      if (!word[1]) words.add(word[0]);
      else if (buildsClass && word[0].endsWith('-${')) families.push(word[0].slice(0, -2));
    }
  }
  return { words, families };
}

const words = new Map(sources.map((f) => [f, wordsOf(f)]));
const uses = (file: string, cls: string) => {
  const { words: w, families } = words.get(file)!;
  return w.has(cls) || families.some((prefix) => cls.startsWith(prefix) && cls.length > prefix.length);
};
const usersOf = (cls: string) => sources.filter((f) => uses(f, cls));

/** Each selector of a stylesheet (comments dropped, at-rules' own lines skipped) with its class names. */
function selectorsOf(sheet: string): { selector: string; classes: string[] }[] {
  const css = readFileSync(sheet, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  return [...css.matchAll(/([^{};]+)\{/g)]
    .map((m) => m[1]!.trim())
    .filter((prelude) => !prelude.startsWith('@') && !/^(from|to|\d+%)$/.test(prelude))
    .flatMap((prelude) => prelude.split(','))
    .map((selector) => ({ selector: selector.trim(), classes: [...selector.matchAll(/\.([A-Za-z_][\w-]*)/g)].map((m) => m[1]!) }));
}

/** The folder whose files alone use a class, if exactly one does. */
const homeOf = (cls: string) => {
  const folders = new Set(usersOf(cls).map(dirname));
  return folders.size === 1 ? [...folders][0]! : undefined;
};

const name = (path: string) => relative(ADMIN, path);

describe('admin styles beside their components', () => {
  it('finds folder stylesheets and the classes their folders use', () => {
    expect(folderSheets.length).toBeGreaterThan(10);
    expect(homeOf('list-toolbar')).toBe(join(ADMIN, 'components/list'));
    expect(homeOf('btn')).toBeUndefined();
  });

  it('gives a folder at most one stylesheet, named for the folder', () => {
    expect(folderSheets.filter((f) => basename(f) !== `${basename(dirname(f))}.css`).map(name)).toEqual([]);
  });

  it("styles in a folder's stylesheet only what that folder's files use", () => {
    const strays = folderSheets.flatMap((sheet) =>
      selectorsOf(sheet)
        .filter(({ classes }) => !classes.some((c) => homeOf(c) === dirname(sheet)))
        .map(({ selector }) => `${name(sheet)}: ${selector}`),
    );
    expect(strays).toEqual([]);
  });

  it('keeps out of admin/styles.css a class that only one folder uses', () => {
    const local = selectorsOf(SHARED).flatMap(({ selector, classes }) =>
      classes.filter((c) => homeOf(c)).map((c) => `${selector} (${c}: ${name(homeOf(c)!)})`),
    );
    expect(local).toEqual([]);
  });

  it("has every file that uses its folder's classes import the folder's stylesheet", () => {
    const missing = folderSheets.flatMap((sheet) => {
      const own = new Set(selectorsOf(sheet).flatMap(({ classes }) => classes.filter((c) => homeOf(c) === dirname(sheet))));
      const importLine = new RegExp(`^import '\\./${basename(sheet).replace('.', '\\.')}';$`, 'm');
      return sources
        .filter((f) => dirname(f) === dirname(sheet) && [...own].some((c) => uses(f, c)))
        .filter((f) => !importLine.test(readFileSync(f, 'utf8')))
        .map(name);
    });
    expect(missing).toEqual([]);
  });

  it('keeps admin/styles.css small', () => {
    expect(readFileSync(SHARED, 'utf8').split('\n').length).toBeLessThanOrEqual(SHARED_MAX_LINES);
  });
});
