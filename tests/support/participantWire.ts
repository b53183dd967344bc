/**
 * The widget's calls as a latency proxy logs them (tests/support/latencyProxy.ts) or Chromium
 * sends them, named once for the browser tests and the widget bench, which count a Next's
 * requests by them.
 */
import type { ProxiedRequest } from './latencyProxy';

type Logged = Pick<ProxiedRequest, 'method' | 'path'>;

/** A request as Chromium sent it (playwright's Request), as the proxy would log it: its method, path and query. */
export const asLogged = (r: { method(): string; url(): string }): Logged => {
  const url = new URL(r.url());
  return { method: r.method(), path: url.pathname + url.search };
};

/** A page's save. The first page's is the submission's creation, which carries its answers. */
export const isPageSave = (r: Logged) => r.method === 'POST' && /^\/api\/o-forms\/o-form-submission(-page\/|s)/.test(r.path);

/** The separate page-timing call: a page left by its save sends its timing in the save instead. */
export const isPageTiming = (r: Logged) => r.path.startsWith('/api/o-forms/o-form-page-metrics');

/** The view, once per page load when the widget is seen: not a request of any Next. */
export const isView = (r: Logged) => r.path.startsWith('/api/o-forms/participant-views');
