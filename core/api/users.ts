import type { DataDocument, ListParams, Resource } from '../jsonapi';
import { decode } from '../jsonapi';
import { TOTP_TYPE, TotpEnrolment, USER_TYPE, User, type ChangePasswordInput, type Role, type UserInput, type UserPatch } from '../model/user';
import { parseAnswer, type ApiClient } from './client';

/** Which roles and sponsors a user holds: ids, sent as relationships. */
export interface UserLinks {
  roleIds?: string[];
  sponsorIds?: string[];
}

const relationships = ({ roleIds, sponsorIds }: UserLinks) => ({
  ...(roleIds ? { roles: { data: roleIds.map((id) => ({ type: 'roles', id })) } } : {}),
  ...(sponsorIds ? { sponsors: { data: sponsorIds.map((id) => ({ type: 'sponsors', id })) } } : {}),
});

export interface PasswordChangeResult {
  user: User;
  /** The password change ended every session; these continue this one. */
  access: string;
  refresh: string;
}

const jsonBody = (doc: unknown) => ({ body: JSON.stringify(doc), headers: { 'Content-Type': 'application/vnd.api+json' } });

/** Users and the signed-in user's own password and two-factor (SPEC section 7, Users). */
export function usersApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<User>('users', { include: 'roles', ...params }),
    /** The whole list for these filters, sort and fields as a CSV file. */
    listCsv: (params: ListParams = {}) => client.listCsv('users', { include: 'roles', ...params }),
    get: (id: string) => client.get<User>(`users/${encodeURIComponent(id)}`),
    create: (values: UserInput, links: UserLinks) => client.create<User>('users', USER_TYPE, { ...values }, relationships(links)),
    update: (id: string, values: UserPatch, links: UserLinks = {}) =>
      client.update<User>(`users/${encodeURIComponent(id)}`, USER_TYPE, id, { ...values }, relationships(links)),
    /** True when the address is well formed and no other user (than `exceptId`) has it. */
    async validateEmail(email: string, exceptId?: string): Promise<{ isValid: boolean; message?: string }> {
      const doc = await client.call((h) =>
        h.post('users/validate-email', jsonBody({ data: { email, id: exceptId } })).json<{ data: { is_valid: boolean; message?: string } }>(),
      );
      return { isValid: doc.data.is_valid, message: doc.data.message };
    },
    /** Turns off another user's two-factor sign-in. */
    resetTwoFactor: (id: string) => client.remove(`users/${encodeURIComponent(id)}/totp`),
    /** The roles a user can hold (GET /api/roles). */
    roles: () => client.list<Role>('roles', { limit: 1000, sort: 'name' }),

    async changePassword(values: ChangePasswordInput): Promise<PasswordChangeResult> {
      const doc = await client.call((h) =>
        h.post('users/me/password', jsonBody({ data: { type: USER_TYPE, attributes: values } })).json<DataDocument<Resource>>(),
      );
      const meta = (doc.meta ?? {}) as { access?: string; refresh?: string };
      return { user: parseAnswer(User, decode(doc), 'a password change'), access: meta.access ?? '', refresh: meta.refresh ?? '' };
    },
    startTwoFactor: () =>
      client.call(async (h) => parseAnswer(TotpEnrolment, decode(await h.post('users/me/totp').json<DataDocument<Resource>>()), 'starting two-factor sign-in')),
    verifyTwoFactor: (code: string) =>
      client.call(async (h) =>
        parseAnswer(
          User,
          decode(await h.post('users/me/totp/verify', jsonBody({ data: { type: TOTP_TYPE, attributes: { code } } })).json<DataDocument<Resource>>()),
          'a two-factor code',
        ),
      ),
  };
}
