/**
 * A small, strict HTML sanitizer for staff-authored participant messages (screener outcome
 * messages). The output is rebuilt from scratch: only allowlisted tags, each with only its
 * allowlisted attributes (re-quoted and escaped), text escaped; everything else is dropped —
 * tags vanish but keep their text, while script-like elements vanish with their content.
 * Written here rather than taken from npm because sanitize-html now needs Node 22 and the
 * product runs on Node 20; the allowlist is small enough to reason about completely.
 */

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'span',
  'div',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'hr',
]);
const VOID_TAGS = new Set(['br', 'hr']);
/** Elements whose content is code or foreign, dropped with everything inside. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
  'textarea',
  'title',
  'xmp',
  'noembed',
  'noframes',
]);
const ALLOWED_SCHEMES = /^(https?:|mailto:|tel:)/i;

const escapeText = (s: string) =>
  s
    .replace(/&(?!(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: '\u00a0' };

/** Entities decoded as a browser would before it reads a URL's scheme. */
function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);?/gi, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1]?.toLowerCase() === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/** An href worth keeping: absolute http(s), mailto or tel, with no control characters hiding the scheme. */
function safeHref(raw: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const url = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return ALLOWED_SCHEMES.test(url) ? url : null;
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function rebuildTag(name: string, attributeText: string, closing: boolean): string {
  if (closing) return VOID_TAGS.has(name) ? '' : `</${name}>`;
  if (name !== 'a') return `<${name}>`;
  let href: string | null = null;
  for (const m of attributeText.matchAll(ATTRIBUTE)) {
    if (m[1]?.toLowerCase() === 'href') href = safeHref(m[2] ?? m[3] ?? m[4] ?? '');
  }
  // Links open outside the partner's page and give it no handle on the opener.
  return href === null ? '<a>' : `<a href="${escapeAttribute(href)}" target="_blank" rel="noopener noreferrer">`;
}

// A tag: `<name ...>` or `</name>`; attribute values may hold `>` inside quotes.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;

export function sanitizeHtml(input: string): string {
  let out = '';
  let i = 0;
  let text = '';
  const flush = () => {
    out += escapeText(text);
    text = '';
  };
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt < 0) {
      text += input.slice(i);
      break;
    }
    text += input.slice(i, lt);
    if (input.startsWith('<!--', lt)) {
      const end = input.indexOf('-->', lt + 4);
      i = end < 0 ? input.length : end + 3;
      continue;
    }
    if (/^<[!?]/.test(input.slice(lt, lt + 2))) {
      // Doctype, CDATA, processing instructions: not content.
      const end = input.indexOf('>', lt);
      i = end < 0 ? input.length : end + 1;
      continue;
    }
    TAG.lastIndex = lt;
    const m = TAG.exec(input);
    if (!m) {
      text += '<';
      i = lt + 1;
      continue;
    }
    const closing = m[1] === '/';
    const name = (m[2] ?? '').toLowerCase();
    i = lt + m[0].length;
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing) {
        const close = new RegExp(`</${name}\\s*>`, 'i').exec(input.slice(i));
        i = close ? i + close.index + close[0].length : input.length;
      }
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    flush();
    out += rebuildTag(name, m[3] ?? '', closing);
  }
  flush();
  return out;
}
