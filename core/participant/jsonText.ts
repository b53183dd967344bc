/**
 * JSON text of plain data (what the widget sends and keeps) written without the host page's
 * help: a partner's page may carry Prototype.js, whose `Array.prototype.toJSON` turns every
 * array into a string inside the native `JSON.stringify`, or a script that replaced
 * `JSON.stringify` itself. Either would send a multiple-choice answer as a string. Index loops
 * and `Object.keys` only: no host-replaceable iterator or array method is read.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes control characters
const ESCAPED = /["\\\u0000-\u001f\u2028\u2029]/g;

const quote = (s: string) => `"${s.replace(ESCAPED, (c) => `\\u${(c.charCodeAt(0) + 0x10000).toString(16).slice(1)}`)}"`;

/** As `JSON.stringify` for strings, finite numbers, booleans, null, arrays and plain objects (undefined members left out). */
export function jsonText(value: unknown): string {
  if (typeof value == 'string') return quote(value);
  if (value === null || typeof value != 'object') return typeof value == 'boolean' || (typeof value == 'number' && isFinite(value)) ? `${value}` : 'null';
  // An array's own keys are its indexes, in order.
  const list = Array.isArray(value);
  const keys = Object.keys(value);
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const member = (value as Record<string, unknown>)[keys[i]!];
    if (list || member !== undefined) out += (out ? ',' : '') + (list ? '' : `${quote(keys[i]!)}:`) + jsonText(member);
  }
  return list ? `[${out}]` : `{${out}}`;
}
