/**
 * Embed problems: why a partner's snippet cannot run, named so a webmaster can fix it. The
 * participant start (and, for a wrong page origin, every participant call) answers each cause
 * with its own JSON:API error `code` and a one-line `detail` the widget prints to the console as
 * it is; the participant sees a calm message. The server records each problem seen on a partner
 * page per channel, page origin and cause (GET /api/media-channels/{id}/embed-problems).
 */

/**
 * - `origin-not-allowed`: the page's origin is not the channel's domain (403; meta.domain names the one allowed).
 * - `origin-opaque`: the page has no origin to compare (a sandboxed iframe or a file sends `Origin: null`; 403).
 * - `channel-unknown`: no media channel has the snippet's id (404).
 * - `channel-inactive`: the channel is switched off (participant-start answers notActive with meta.problem).
 * - `screener-mismatch`: the snippet's screener is not the channel's (409; meta.screenerId names the channel's).
 * A snippet without a target element is the widget's own finding (nothing reaches the server).
 */
export const EMBED_PROBLEMS = ['origin-not-allowed', 'origin-opaque', 'channel-unknown', 'channel-inactive', 'screener-mismatch'] as const;
export type EmbedProblemCode = (typeof EMBED_PROBLEMS)[number];

/** A problem as an answer carries it: the code and the console's one line. */
export interface EmbedProblem {
  code: EmbedProblemCode;
  detail: string;
}

/** One line each, for the console (sent by the server) and for staff (the media channel view). */
export const embedProblemDetail = {
  originNotAllowed: (origin: string, channelId: number | string, domain: string) =>
    `This page's origin ${origin} may not run media channel ${channelId}: its domain is ${domain}. Embed the snippet on ${domain}, or change the channel's domain.`,
  originOpaque: (channelId: number | string, domain: string) =>
    `This page has no origin (Origin: null — a sandboxed iframe without allow-same-origin, or a file), so media channel ${channelId} cannot tell it is on ${domain}. Serve the snippet from a page on ${domain}, or add allow-same-origin to the iframe's sandbox.`,
  channelUnknown: (channelId: number | string) => `There is no media channel ${channelId}: check data-media-channel-id in the snippet.`,
  channelInactive: (channelId: number | string) => `Media channel ${channelId} is switched off: participants see the survey's not-active message.`,
  screenerMismatch: (channelId: number | string, screenerId: number | string, channelScreenerId: number | string) =>
    `Media channel ${channelId} runs screener ${channelScreenerId}, not ${screenerId}: set data-screener-id="${channelScreenerId}" in the snippet.`,
} as const;

/** What staff read for each recorded cause (the media channel view). */
export const EMBED_PROBLEM_LABELS: Record<EmbedProblemCode, string> = {
  'origin-not-allowed': "Page origin not allowed (not the channel's domain)",
  'origin-opaque': 'Page without an origin (sandboxed iframe or file)',
  'channel-unknown': 'Unknown media channel',
  'channel-inactive': 'Media channel switched off',
  'screener-mismatch': "Snippet's screener is not the channel's",
};

/** GET /api/media-channels/{id}/embed-problems: the last distinct problems seen for the channel. */
export const EMBED_PROBLEM_TYPE = 'embed-problems';
/** At most this many distinct problems (origin and cause) are kept per channel: the most recently seen. */
export const EMBED_PROBLEMS_KEPT = 20;
/** The longest page origin recorded. */
export const EMBED_ORIGIN_MAX_LENGTH = 255;
