const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const parse = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

export const formatDate = (value: string | null | undefined): string => {
  const date = parse(value);
  return date ? DATE.format(date) : '';
};

export const formatDateTime = (value: string | null | undefined): string => {
  const date = parse(value);
  return date ? DATE_TIME.format(date) : '';
};

/**
 * The text a reader sees of a message stored as HTML, for places that show it in a line (a
 * table cell). Read without parsing the HTML into elements: Chromium checks the page's policy
 * against every event-handler attribute it parses, even in an inert document, and reports each
 * as a violation. Code and styles are dropped, tags become spaces, common entities are decoded;
 * the result is shown as text, so nothing in it can run.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
export const textOfHtml = (html: string | null | undefined): string => {
  if (!html) return '';
  return html
    .replace(/<(script|style|template|noscript|iframe|svg|math)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n = code[1]?.toLowerCase() === 'x' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
        return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
      }
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
};

/** An attribute's name in words, for places with no label for it: 'piName' → 'Pi name'. */
export const inWords = (name: string): string => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
