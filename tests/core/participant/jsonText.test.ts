import { afterEach, describe, expect, it } from 'vitest';
import { jsonText } from '@core/participant/jsonText';

const samples: unknown[] = [
  { data: { type: 'o-form-submission-pages', attributes: { answers: { 'demo-treatment': ['pills', 'diet'], age: '18-64', n: 3, ok: true, none: null } } } },
  ['a', ['b', []], {}],
  'quote " backslash \\ newline \n tab \t nul \u0000 separators \u2028\u2029 accents éñ 😀',
  { skipped: undefined, kept: 0, nan: NaN, list: [undefined, Infinity] },
];

describe('jsonText', () => {
  const arrayToJson = Object.getOwnPropertyDescriptor(Array.prototype, 'toJSON');
  afterEach(() => {
    if (arrayToJson) Object.defineProperty(Array.prototype, 'toJSON', arrayToJson);
    else delete (Array.prototype as { toJSON?: unknown }).toJSON;
  });

  it('writes what the native JSON.stringify writes, read back the same', () => {
    for (const value of samples) {
      expect(JSON.parse(jsonText(value))).toEqual(JSON.parse(JSON.stringify(value)));
    }
    expect(jsonText({ a: [1, 'x'], b: { c: null } })).toBe(JSON.stringify({ a: [1, 'x'], b: { c: null } }));
  });

  it("keeps arrays arrays when the host page's Array.prototype.toJSON (Prototype.js) turns them into strings", () => {
    // Prototype.js assigns it, so it is enumerable too.
    (Array.prototype as { toJSON?: unknown }).toJSON = function (this: unknown[]) {
      return `[${this.join(', ')}]`;
    };
    const body = { answers: { 'demo-treatment': ['pills'] } };
    expect(JSON.parse(JSON.stringify(body)).answers['demo-treatment']).toBe('[pills]');
    expect(JSON.parse(jsonText(body))).toEqual({ answers: { 'demo-treatment': ['pills'] } });
  });
});
