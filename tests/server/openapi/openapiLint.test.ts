/**
 * The OpenAPI document as the two linters partners' tooling uses judge it: Redocly's
 * recommended rules and Spectral's OAS ruleset, with no errors. The warnings left are listed in
 * docs/api-conventions.md ("API documentation") with why; a new kind of warning fails here until it is either
 * fixed or listed.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
const JsonParser = spectralParsers.Json;
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';

let h: Harness;
let source: string;

/** Redocly warnings kept on purpose (docs/api-conventions.md, "API documentation"). */
const REDOCLY_WARNINGS_KEPT = new Set<string>(['info-license', 'no-ambiguous-paths', 'operation-2xx-response', 'operation-4xx-response']);
/** Spectral warnings kept on purpose (docs/api-conventions.md, "API documentation"). */
const SPECTRAL_WARNINGS_KEPT = new Set<string>(['info-contact']);

beforeAll(async () => {
  h = await createHarness();
  source = await (await h.app.request('/api/openapi.json')).text();
});
afterAll(async () => {
  await h.close();
});

// Each linter walks the whole document (hundreds of operations): seconds of CPU on a quiet
// machine, several times that on a busy one, with nothing to wait on but the work itself.
const LINT_TIMEOUT = 120_000;

describe('the OpenAPI document under lint', () => {
  it(
    'has no Redocly errors (recommended rules), and only the warnings we keep',
    async () => {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
      const said = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer ?? ''}`);
      expect(
        said.filter((p) => p.startsWith('error')),
        said.slice(0, 20).join('\n'),
      ).toEqual([]);
      const warnings = [...new Set(problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId))];
      expect(
        warnings.filter((rule) => !REDOCLY_WARNINGS_KEPT.has(rule)),
        said.slice(0, 20).join('\n'),
      ).toEqual([]);
    },
    LINT_TIMEOUT,
  );

  it(
    'has no Spectral errors (OAS ruleset), and only the warnings we keep',
    async () => {
      const spectral = new Spectral();
      spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
      const results = await spectral.run(new Document(source, JsonParser));
      const said = results.map((r) => `${r.severity} ${String(r.code)}: ${r.message} @ ${r.path.join('.')}`);
      expect(
        said.filter((r) => r.startsWith('0 ')),
        said.slice(0, 20).join('\n'),
      ).toEqual([]);
      const warnings = [...new Set(results.filter((r) => r.severity === 1).map((r) => String(r.code)))];
      expect(
        warnings.filter((rule) => !SPECTRAL_WARNINGS_KEPT.has(rule)),
        said.slice(0, 20).join('\n'),
      ).toEqual([]);
    },
    LINT_TIMEOUT,
  );
});
