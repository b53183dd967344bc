/**
 * Where a participant came from, kept without what a partner page's address may carry besides
 * (an e-mail prefilled in its query, a session id): the page as origin and path only, and the
 * campaign parameters the product reports on, each length-limited. The widget's transport
 * reduces the page's address before it leaves the browser; the server reduces what arrives
 * again, whoever sent it.
 */
import { UTM_MAX_LENGTH, UTM_PARAMETERS, type Utm } from '../model/partnerPage';

/** The longest page address accepted. */
export const PAGE_URL_MAX_LENGTH = 2000;

/** An absolute http(s) address, parsed; null for anything else. */
export function httpUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * The page as stored (origin and path: no query, fragment or credentials) and its campaign
 * parameters; `url` is null when `raw` is not an http(s) address.
 */
export function pageAttribution(raw: string): { url: string | null; utm: Utm } {
  const url = httpUrl(raw);
  if (!url) return { url: null, utm: {} };
  const utm: Utm = {};
  for (const name of UTM_PARAMETERS) {
    const value = url.searchParams.get(name)?.trim();
    if (value) utm[name] = value.slice(0, UTM_MAX_LENGTH);
  }
  return { url: `${url.origin}${url.pathname}`, utm };
}

/**
 * The hidden fields kept of those a page sent: only the channel's declared names, trimmed and
 * non-empty, each at most its declared length (a longer value is dropped, not cut: a cut
 * identifier would name something else).
 */
export function keepHiddenFields(
  declared: readonly { name: string; maxLength: number }[],
  sent: Readonly<Record<string, string>> | null | undefined,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const { name, maxLength } of declared) {
    const value = sent && Object.hasOwn(sent, name) ? sent[name]?.trim() : undefined;
    if (value && value.length <= maxLength) kept[name] = value;
  }
  return kept;
}
