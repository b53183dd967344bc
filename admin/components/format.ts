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
 * table cell): parsed in an inert <template>, so nothing in it runs or loads; paragraphs and
 * line breaks become spaces.
 */
export const textOfHtml = (html: string | null | undefined): string => {
  if (!html) return '';
  const template = document.createElement('template');
  template.innerHTML = html.replace(/<br\s*\/?>|<\/(p|li|div)>/gi, (tag) => `${tag} `);
  return (template.content.textContent ?? '').replace(/\s+/g, ' ').trim();
};

/** An attribute's name in words, for places with no label for it: 'piName' → 'Pi name'. */
export const inWords = (name: string): string => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
