/** What the list endpoints of the record screens answer to queries a client should not send. */
import { expect } from 'vitest';
import { json, type Harness } from './harness';

/** GET `path?query` for each of `cases`: a 400 whose first error names `parameter` and says why. */
export async function expectParametersRefused(h: Harness, path: string, token: string, cases: [query: string, parameter: string][]) {
  for (const [query, parameter] of cases) {
    const res = await h.request('GET', `${path}?${query}`, { token });
    expect(res.status, query).toBe(400);
    const doc = await json(res);
    expect(doc.errors[0].source.parameter, query).toBe(parameter);
    expect(doc.errors[0].detail.length, query).toBeGreaterThan(5);
  }
}

/** What `token` learns of a taken `identification` at `path`: that one record has it, and nothing else of it. */
export async function expectOnlyIdentificationTaken(h: Harness, path: string, identification: string, token: string) {
  const check = await json(await h.request('GET', `${path}?uniqueIdentification=${identification}`, { token }));
  expect(check.meta.total).toBe(1);
  expect(Object.keys(check.data[0].attributes)).toEqual(['identification']);
}
