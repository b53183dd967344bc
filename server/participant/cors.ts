/**
 * Cross-origin access to the participant routes (issue 7): the widget runs on a partner's page,
 * so the API answers CORS for the media channel's own `domain` and the product's own origin,
 * and for nobody else.
 *
 * - The channel is named in the query (`?mediaChannelId=`) of every cross-origin call, because a
 *   preflight carries no body and no token; core/participant/transport.ts always sends it.
 * - An Origin matches a channel when its host name equals the channel's domain exactly
 *   (case-insensitive), over http or https, on any port. Subdomains do not match.
 * - A preflight from another origin gets no CORS headers (the browser then refuses the call);
 *   an actual cross-origin call from another origin is refused with 403 before anything runs,
 *   yet readable by that origin (the widget's first call is a simple GET that needs no
 *   preflight): its error names the cause (`origin-not-allowed`, or `channel-unknown` with a 404)
 *   and the domain that is allowed, so the widget can tell the webmaster in the console. The
 *   refusal is recorded as an embed problem of the channel (./embedProblems.ts).
 * - Token routes check that the submission belongs to the channel the query names, so one
 *   partner's page cannot act for another channel's submission.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { eq } from 'drizzle-orm';
import type { EmbedProblemCode } from '@core/model/embedProblem';
import { httpUrl } from '@core/participant/attribution';
import { nowOf, type AppEnv, type Deps } from '../context';
import { mediaChannels } from '../db/schema';
import { ApiProblem } from '../http/errors';
import { idParam } from '../http/params';
import { parseId } from '../http/query';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { channelUnknown, originNotAllowed, originOpaque, pageOrigin, recordEmbedProblem } from './embedProblems';

export const ORIGIN_REFUSED = 'This site may not run this survey.';

const refused = () => new ApiProblem(403, [{ status: '403', title: 'Forbidden', code: 'origin-not-allowed', detail: ORIGIN_REFUSED }]);

/** The origins that are the product itself: the one the request reached, and PUBLIC_URL's. */
export function isOwnOrigin(c: Context, origin: string, publicUrl: string | null): boolean {
  const own = new Set([new URL(c.req.url).origin]);
  if (publicUrl) own.add(new URL(publicUrl).origin);
  return own.has(origin);
}

export const hostMatches = (origin: string, domain: string): boolean => {
  const url = httpUrl(origin);
  return url !== null && url.hostname.toLowerCase() === domain.trim().toLowerCase().replace(/\.$/, '');
};

/**
 * The channel parameter of a participant call, as routes describe and parse it: the channel the
 * call comes through, whose allowed origins apply.
 */
export const CHANNEL_QUERY = { mediaChannelId: idParam('media channel', 'The media channel the call comes through: its allowed origins apply (CORS).') };

/** The channel id the query names, or null (absent or malformed). */
export const queryChannelId = (c: Context): number | null => parseId(c.req.query('mediaChannelId'));

/** True when the request came from another origin (a partner's page), i.e. CORS applies. */
export function isCrossOrigin(c: Context, deps: Pick<Deps, 'config'>): boolean {
  const origin = c.req.header('origin');
  return origin !== undefined && !isOwnOrigin(c, origin, deps.config.publicUrl);
}

/** Records an embed problem of the channel when the call came from a partner's page (another origin). */
export async function recordPageProblem(
  c: Context,
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  mediaChannelId: number,
  cause: EmbedProblemCode,
): Promise<void> {
  const origin = pageOrigin(c.req.header('origin'));
  if (origin === null || !isCrossOrigin(c, deps)) return;
  await recordEmbedProblem(deps.db, { mediaChannelId, origin, cause, at: nowOf(deps) });
}

/**
 * For a cross-origin call about an existing submission: the query must name the submission's
 * own channel (the one whose domain the CORS check admitted). Same-origin calls pass.
 */
export function assertChannelOfRequest(c: Context, deps: Pick<Deps, 'config'>, channelId: number | null) {
  if (isCrossOrigin(c, deps) && queryChannelId(c) !== channelId) throw refused();
}

const ALLOW_HEADERS = ['Content-Type', 'Accept', 'Accept-Language', SUBMISSION_TOKEN_HEADER].join(', ');

export const participantCors = (deps: Deps) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.header('Vary', 'Origin', { append: true });
    const origin = c.req.header('origin');
    if (origin === undefined) return next();
    let allowed = isOwnOrigin(c, origin, deps.config.publicUrl);
    const channelId = allowed ? null : queryChannelId(c);
    let channel: { id: number; domain: string } | undefined;
    if (!allowed) {
      [channel] =
        channelId === null
          ? []
          : await deps.db.select({ id: mediaChannels.id, domain: mediaChannels.domain }).from(mediaChannels).where(eq(mediaChannels.id, channelId));
      allowed = channel !== undefined && hostMatches(origin, channel.domain);
    }
    if (c.req.method === 'OPTIONS') {
      if (!allowed) return c.body(null, 204);
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, PATCH, OPTIONS',
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        // As long as Chromium keeps a preflight (Firefox keeps one a day): the calls that still
        // need one (a token in a header, PATCH) ask once per address for the run's whole length.
        'Access-Control-Max-Age': '7200',
        Vary: 'Origin',
      });
    }
    if (!allowed) {
      // Readable by the page it refuses: the widget names the cause in the console.
      c.header('Access-Control-Allow-Origin', origin);
      const page = pageOrigin(origin);
      if (channelId !== null && !channel) throw channelUnknown(channelId);
      if (channel && origin === 'null') {
        await recordEmbedProblem(deps.db, { mediaChannelId: channel.id, origin: 'null', cause: 'origin-opaque', at: nowOf(deps) });
        throw originOpaque(channel.id, channel.domain);
      }
      if (!channel || page === null) throw refused();
      await recordEmbedProblem(deps.db, { mediaChannelId: channel.id, origin: page, cause: 'origin-not-allowed', at: nowOf(deps) });
      throw originNotAllowed(page, channel.id, channel.domain);
    }
    // Set before the handler runs so error answers (404, 422, 429) are readable by the widget too.
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Expose-Headers', `${SUBMISSION_TOKEN_HEADER}, Retry-After, X-Request-Id`);
    await next();
  });
