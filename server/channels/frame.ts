/**
 * The framed widget (a channel's `isolation: frame`): widget.js on the partner's page builds an
 * iframe of GET /embed/frame, whose query is the snippet's own `data-*` attributes without the
 * `data-` prefix, the partner page's origin and path and its campaign parameters (utm_*). The page runs the same widget as the snippet
 * would, so only pages the channel's CORS admits may show it: its `frame-ancestors` is the
 * channel's domain (any scheme and port, as the participant CORS matches it) and the product's
 * own origin, and the partner origin it names (where the frame posts its height and host events)
 * must be one of them.
 */
import { eq } from 'drizzle-orm';
import { HIDDEN_FIELD_MAX_LENGTH, HIDDEN_FIELD_NAME, HIDDEN_FIELDS_MAX } from '@core/model/mediaChannel';
import { UTM_PARAMETERS } from '@core/model/partnerPage';
import { PAGE_URL_MAX_LENGTH, httpUrl } from '@core/participant/attribution';
import type { Db } from '../db/open';
import { mediaChannels } from '../db/schema';
import { BadParameter, Forbidden, NotFound } from '../errors';
import { hostMatches } from '../participant';

/** What the frame's query carries, checked: the snippet's ids, language and hidden fields, and the page that frames it. */
export interface FrameRequest {
  mediaChannelId: number;
  screenerId: string;
  language?: string;
  fields: [name: string, value: string][];
  /** The partner page's origin: the only one the frame posts to. */
  parentOrigin: string;
  /**
   * The partner page's address as the widget in the frame reports it for the run: the checked
   * origin, the page's path and its campaign parameters (the widget keeps origin and path of it,
   * and reads the parameters, as from the page it runs in).
   */
  page: string;
}

// As widget/snippet.ts reads the snippet: database ids or short slugs, a language like es or en-US.
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const LANGUAGE = /^[a-z]{2}(?:[-_][A-Za-z]{2})?$/;
const FIELD = 'field-';
const KNOWN: readonly string[] = ['media-channel-id', 'screener-id', 'language', 'origin', 'path'];

/** The frame's query, checked; a mistake names its parameter (nothing is read or written). */
export function parseFrameQuery(params: URLSearchParams): FrameRequest {
  const one = (name: string) => {
    const all = params.getAll(name);
    if (all.length > 1) throw new BadParameter(`Give ${name} once.`, name);
    return all[0]?.trim();
  };
  for (const name of params.keys()) {
    if (![...KNOWN, ...UTM_PARAMETERS].includes(name) && !name.startsWith(FIELD)) throw new BadParameter(`Unknown query parameter '${name}'.`, name);
  }
  // The partner page's campaign parameters, each once: they go into the page address the widget
  // in the frame takes for the run (FrameRequest.page), which reads them (cut to length) as from any page.
  const utm = new URLSearchParams();
  for (const name of UTM_PARAMETERS) {
    const value = one(name);
    if (value) utm.set(name, value);
  }
  const channel = one('media-channel-id') ?? '';
  if (!/^\d{1,9}$/.test(channel))
    throw new BadParameter("media-channel-id must be the media channel's id (the snippet's data-media-channel-id).", 'media-channel-id');
  const screenerId = one('screener-id') ?? '';
  if (!ID.test(screenerId)) throw new BadParameter("screener-id must be the screener's id (the snippet's data-screener-id).", 'screener-id');
  const language = one('language') || undefined;
  if (language !== undefined && !LANGUAGE.test(language)) throw new BadParameter('language must be a language code such as en or es-US.', 'language');
  const origin = one('origin') ?? '';
  const url = httpUrl(origin);
  if (!url || url.origin !== origin) throw new BadParameter("origin must be the framing page's origin, such as https://www.example.com.", 'origin');
  // The page's path as the browser gives it (location.pathname): a path that the URL parser keeps
  // as it is (no query, fragment, space or control character), untrimmed, with the origin no
  // longer than a page address may be (else the run would be refused at its start).
  one('path');
  const path = params.get('path') ?? '';
  if (!path.startsWith('/') || origin.length + path.length > PAGE_URL_MAX_LENGTH || httpUrl(origin + path)?.pathname !== path) {
    throw new BadParameter(
      `path must be the framing page's path, such as /news/article, with no query or fragment and at most ${PAGE_URL_MAX_LENGTH} characters with the origin.`,
      'path',
    );
  }
  const fields: FrameRequest['fields'] = [];
  for (const [name, value] of params) {
    if (!name.startsWith(FIELD)) continue;
    const field = name.slice(FIELD.length);
    if (!HIDDEN_FIELD_NAME.test(field) || value.length > HIDDEN_FIELD_MAX_LENGTH)
      throw new BadParameter(`${name} must name a hidden field (a-z, 0-9, - or _) with at most ${HIDDEN_FIELD_MAX_LENGTH} characters.`, name);
    fields.push([field, value]);
  }
  if (fields.length > HIDDEN_FIELDS_MAX) throw new BadParameter(`At most ${HIDDEN_FIELDS_MAX} hidden fields.`, FIELD);
  return { mediaChannelId: Number(channel), screenerId, language, fields, parentOrigin: origin, page: `${origin}${path}${utm.size ? `?${utm}` : ''}` };
}

/** The sources a channel's frame may be shown in: the product itself and its domain over http or https, on any port. */
export const frameAncestors = (domain: string): string => {
  const host = domain.trim().toLowerCase().replace(/\.$/, '');
  return `'self' http://${host}:* https://${host}:*`;
};

export const FRAME_ORIGIN_REFUSED = (origin: string, domain: string) =>
  `Pages of ${origin} may not show this survey: its media channel allows pages of ${domain} only.`;

/**
 * The channel a frame shows (whether active or not: the widget tells a participant itself) and
 * its frame-ancestors. The named partner origin must be the channel's domain or the product's own.
 */
export async function channelToFrame(db: Db, request: FrameRequest, isOwnOrigin: (origin: string) => boolean): Promise<{ id: number; frameAncestors: string }> {
  const [channel] = await db
    .select({ id: mediaChannels.id, domain: mediaChannels.domain })
    .from(mediaChannels)
    .where(eq(mediaChannels.id, request.mediaChannelId));
  if (!channel) throw new NotFound('media channel');
  if (!isOwnOrigin(request.parentOrigin) && !hostMatches(request.parentOrigin, channel.domain))
    throw new Forbidden(FRAME_ORIGIN_REFUSED(request.parentOrigin, channel.domain));
  return { id: channel.id, frameAncestors: frameAncestors(channel.domain) };
}
