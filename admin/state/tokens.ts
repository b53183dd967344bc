/**
 * Where the session's tokens live between page loads: two cookies (SPEC section 9). They are
 * session cookies scoped to the whole site, SameSite=Strict so no other site's page can send
 * them, and Secure whenever the admin is served over https.
 */
export const ACCESS_COOKIE = 'auth_token_admin';
export const REFRESH_COOKIE = 'auth_token_admin_refresh';

export interface Tokens {
  access: string;
  refresh: string;
}

export interface TokenStore {
  read(): Tokens | null;
  write(tokens: Tokens): void;
  clear(): void;
}

function readCookie(doc: Document, name: string): string | null {
  for (const part of doc.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function cookieTokenStore(doc: Document = document): TokenStore {
  const attributes = () => {
    const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
    return `; Path=/; SameSite=Strict${secure}`;
  };
  const set = (name: string, value: string) => {
    doc.cookie = `${name}=${encodeURIComponent(value)}${attributes()}`;
  };
  const remove = (name: string) => {
    doc.cookie = `${name}=${attributes()}; Max-Age=0`;
  };
  return {
    read() {
      const access = readCookie(doc, ACCESS_COOKIE);
      const refresh = readCookie(doc, REFRESH_COOKIE);
      return access && refresh ? { access, refresh } : null;
    },
    write(tokens) {
      set(ACCESS_COOKIE, tokens.access);
      set(REFRESH_COOKIE, tokens.refresh);
    },
    clear() {
      remove(ACCESS_COOKIE);
      remove(REFRESH_COOKIE);
    },
  };
}
