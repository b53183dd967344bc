/**
 * Response headers every answer carries (OWASP ASVS 14.4), and the Content-Security-Policy of
 * every HTML document we send (the admin, the participant and demo pages, error pages): scripts
 * only from this origin, never inline, and no framing.
 */
import { setAnswerHeaders } from './headers';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';

/**
 * Styles may be inline: React sets style attributes and Radix's scroll lock adds a <style>
 * element; neither can run code. Scripts, the real risk, are 'self' only.
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers for an HTML document: its policy, and framing refused also for browsers without frame-ancestors. */
export const ADMIN_DOCUMENT_HEADERS = {
  'Content-Security-Policy': ADMIN_CSP,
  'X-Frame-Options': 'DENY',
} as const;

const isHtml = (contentType: string | null) => contentType !== null && /^text\/html\b/i.test(contentType);

export const securityHeaders = (options: { https: boolean }) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    // Any HTML answer, whoever made it (a route, an error page, a framework default): a page
    // that states its own policy keeps it.
    const document = isHtml(c.res.headers.get('content-type')) && !c.res.headers.has('content-security-policy');
    setAnswerHeaders(c, {
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      ...(options.https || new URL(c.req.url).protocol === 'https:' ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
      ...(document ? ADMIN_DOCUMENT_HEADERS : {}),
    });
  });
