/** Where to go after signing in: only paths of this site, never another origin (`//evil`). */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  if (target === '/login' || target.startsWith('/login?') || target.startsWith('/logout')) return null;
  return target;
}

/** Home: the sponsors for staff, the work queue for a Site Coordinator (the Dashboard route decides). */
export const AFTER_SIGN_IN = '/';

/** The login page, remembering the page the visitor was going to. */
export function loginPath(target: string): string {
  return safeRedirect(target) && target !== '/' ? `/login?redirect=${encodeURIComponent(target)}` : '/login';
}
