import type { ApiClient } from './client';
import * as v from 'valibot';
import { SsoServices, type LoginInput, type LoginResult, type User } from '../model/user';

export interface RefreshResult {
  success: boolean;
  access?: string;
  refresh?: string;
  data?: { message?: string };
}

/** Sign-in, refresh, sign-out and the current user (SPEC section 7, Auth). */
export function authApi(client: ApiClient) {
  return {
    /** Never throws for a refused sign-in: the answer's `success` and `data.message` say why. */
    async login(input: LoginInput, authService?: string): Promise<LoginResult> {
      const searchParams = new URLSearchParams({ t: 'a' });
      if (authService) searchParams.set('auth_service', authService);
      return client.call((h) =>
        h.post('jwt/login', { searchParams, json: { data: input }, credentials: 'include', throwHttpErrors: false }).json<LoginResult>(),
      );
    },
    refresh: (refreshToken: string) =>
      client.call((h) => h.post('jwt/refresh', { json: { refresh_token: refreshToken }, throwHttpErrors: false }).json<RefreshResult>()),
    logout: (refreshToken: string | null) =>
      client.call((h) => h.post('jwt/logout', { json: { refresh_token: refreshToken }, throwHttpErrors: false }).json<{ success: boolean }>()),
    me: () => client.get<User>('users/me'),
    /** The single sign-on services the server offers; none when it cannot say (sign-in by password still works). */
    ssoServices: async (): Promise<readonly string[]> => {
      try {
        const parsed = v.safeParse(SsoServices, await client.call((h) => h.get('jwt/sso-services').json()));
        return parsed.success ? parsed.output.services : [];
      } catch {
        return [];
      }
    },
  };
}
