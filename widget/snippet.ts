import type { MountOptions } from './mount';

export type SnippetResult = { ok: true; options: Omit<MountOptions, 'apiOrigin'>; language?: string } | { ok: false; problem: string; language?: string };

// Ids are database ids or short slugs; anything else is a pasting mistake.
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const LANGUAGE = /^[a-z]{2}(?:[-_][A-Za-z]{2})?$/;

/** The snippet's data attributes, checked. */
export function readSnippet(element: HTMLElement): SnippetResult {
  const mediaChannelId = element.getAttribute('data-media-channel-id')?.trim() ?? '';
  const screenerId = element.getAttribute('data-screener-id')?.trim() ?? '';
  const rawLanguage = element.getAttribute('data-language')?.trim();
  const language = rawLanguage && LANGUAGE.test(rawLanguage) ? rawLanguage : undefined;
  // A bad language never hides the survey: the browser's language (or English) is used instead.
  if (!ID.test(mediaChannelId)) return { ok: false, problem: 'data-media-channel-id is missing or not a valid id.', language };
  if (!ID.test(screenerId)) return { ok: false, problem: 'data-screener-id is missing or not a valid id.', language };
  // Hidden fields: every data-field-<name> (the channel decides which it keeps, and how long).
  let fields: Record<string, string> | undefined;
  for (const { name, value } of element.attributes) if (name.startsWith('data-field-')) (fields ??= {})[name.slice(11)] = value;
  // The page the run names: the frame's page (/embed/frame) gives the partner page's; elsewhere the widget's own page.
  return { ok: true, options: { mediaChannelId, screenerId, language, fields, pageUrl: element.dataset.pageUrl }, language };
}
