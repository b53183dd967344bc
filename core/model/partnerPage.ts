/**
 * What a media channel's partner page and the widget on it share, as plain constants (no
 * validation code, so the widget imports them without a schema library): the campaign
 * parameters the page's address may carry, and the Trusted Types policy its CSP may name.
 */

/** The campaign parameters kept from a page's address (or sent on their own as `utm`). */
export const UTM_PARAMETERS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmParameter = (typeof UTM_PARAMETERS)[number];
export type Utm = Partial<Record<UtmParameter, string>>;

/** The longest campaign value kept; a longer one read from an address is cut to this. */
export const UTM_MAX_LENGTH = 200;

/**
 * The one Trusted Types policy the widget creates, for the screener's messages (staff HTML the
 * server sanitized before sending): a partner page whose CSP has a `trusted-types` directive
 * names it there.
 */
export const TRUSTED_TYPES_POLICY = 'trial-widget';
