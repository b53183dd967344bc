/**
 * The contract a partner integrates from: openapi-typescript generates `paths` from the real
 * app's /api/openapi.json, and tests/support/integration/partnerClient.ts (openapi-fetch over
 * those types) must type-check with the TypeScript compiler, holding no cast and no `any`, and
 * then run against the real server over HTTP, answering what was created.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp } from '../../../server/http/serve';
import { parseCsv } from '../../support/csv';
import type { Partner, PartnerOutcome } from '../../support/integration/outcome';
import { ADMIN_PASSWORD, createHarness, type Harness } from '../harness';

const INTEGRATION = path.resolve(import.meta.dirname, '../../support/integration/partnerClient.ts');

let h: Harness;
let server: Server;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  h = await createHarness();
  const port = await new Promise<number>((resolve) => {
    server = serveApp(h.app, { hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve(info.port)).server;
  });
  baseUrl = `http://127.0.0.1:${port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'typed-client-'));
  const document = (await (await h.app.request('/api/openapi.json')).json()) as Parameters<typeof openapiTS>[0];
  fs.writeFileSync(path.join(dir, 'openapi.d.ts'), astToString(await openapiTS(document)));
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The compiler's complaints about `file` (beside the generated types), one line each. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram({
    rootNames: [file, path.join(dir, 'openapi.d.ts')],
    options: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      // The generated types sit in a directory of their own; `./openapi` resolves there as if beside the file.
      rootDirs: [path.dirname(file), dir],
    },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

describe('a typed client generated from the document', () => {
  it('type-checks the integration, which holds no cast and no any', () => {
    const source = fs.readFileSync(INTEGRATION, 'utf8');
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\sas\s/);
    expect(code).not.toMatch(/\bany\b/);
    expect(code).not.toMatch(/@ts-|\w!\./);
    expect(typeErrors(INTEGRATION)).toEqual([]);
    // A whole program's type-check: seconds alone, much longer on a loaded machine.
  }, 120_000);

  it('types every attribute: reading one the document does not describe, or misusing one, does not compile', () => {
    const wrong = path.join(dir, 'wrong.ts');
    fs.writeFileSync(
      wrong,
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './openapi';",
        "const api = createClient<paths, 'application/vnd.api+json'>({ baseUrl: '/' });",
        'export async function wrong() {',
        "  const answer = await api.GET('/api/engagements/{id}', { params: { path: { id: '1' } } });",
        '  const unknown: unknown = answer.data?.data.attributes?.notAnAttribute;',
        '  const radius: string | undefined = answer.data?.data.attributes?.radius;',
        "  const sponsors = await api.GET('/api/sponsors', { params: { query: { isActive: 'maybe' } } });",
        '  return [unknown, radius, sponsors];',
        '}',
      ].join('\n'),
    );
    // openapi-fetch resolves from this repository's node_modules, as the integration's does.
    fs.symlinkSync(path.resolve(import.meta.dirname, '../../../node_modules'), path.join(dir, 'node_modules'), 'dir');
    const errors = typeErrors(wrong).join('\n');
    expect(errors).toMatch(/notAnAttribute/);
    expect(errors).toMatch(/wrong\.ts:7 .*number.*string|wrong\.ts:7 [\s\S]*not assignable/);
    expect(errors).toMatch(/"maybe"/);
  }, 120_000);

  it('runs against the real server: signs in, creates, filters, sorts, pages and takes CSV', async () => {
    // Imported by its path: the root type-check leaves the integration to this test, which compiles it above.
    const { runPartnerIntegration } = (await import(/* @vite-ignore */ INTEGRATION)) as { runPartnerIntegration(partner: Partner): Promise<PartnerOutcome> };
    const outcome = await runPartnerIntegration({ baseUrl, username: 'admin', password: ADMIN_PASSWORD, mark: 'TC1', engagements: 11 });
    expect(outcome.sponsor).toMatchObject({ name: 'Partner sponsor TC1', isActive: true, totalEngagements: 12 });
    expect(outcome.created).toHaveLength(12);
    expect(outcome.created[0]).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), fullIdentification: 'PTC1-E1', radius: 11, phase: 'II' });
    expect(outcome.created[11]?.phase).toBe('III');
    // Phase II only (11 of 12), newest name first, ten a page.
    expect(outcome.firstPage.total).toBe(11);
    expect(outcome.firstPage.names).toEqual([
      'Study 11',
      'Study 10',
      'Study 09',
      'Study 08',
      'Study 07',
      'Study 06',
      'Study 05',
      'Study 04',
      'Study 03',
      'Study 02',
    ]);
    expect(new Set(outcome.firstPage.phases)).toEqual(new Set(['II']));
    expect(outcome.secondPage.page).toBe(2);
    expect(outcome.secondPage.ids).toEqual([outcome.created[0]?.id]);
    expect(outcome.secondPage.sponsorIds).toEqual([Number(outcome.sponsor.id)]);
    const rows = parseCsv(outcome.csv);
    expect(rows[0]).toEqual(['id', 'name', 'fullIdentification', 'phase']);
    expect(rows.slice(1).map((r) => r[1])).toEqual([...Array.from({ length: 12 }, (_, i) => `Study ${String(i + 1).padStart(2, '0')}`)]);
    expect(rows[12]).toEqual([outcome.created[11]?.id, 'Study 12', 'PTC1-E12', 'III']);
  });
});
