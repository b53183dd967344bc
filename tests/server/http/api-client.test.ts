/**
 * The core API client against the real app (app.request as its fetch): headers, decoding and
 * failures turned into ApiError with the server's message.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, UNREACHABLE_MESSAGE } from '@core/api/client';
import { authApi } from '@core/api/auth';
import { sponsorsApi } from '@core/api/sponsors';
import { countriesApi } from '@core/api/countries';
import { ADMIN_PASSWORD, useHarness, type Harness } from '../harness';

let h: Harness;
const seen: Request[] = [];
let token: string | null = null;

const client = () =>
  createApiClient({
    baseUrl: 'http://app.test/api',
    getToken: () => token,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      seen.push(request.clone());
      return h.app.request(request);
    },
  });

useHarness((harness) => {
  h = harness;
});

describe('core API client', () => {
  it('signs in, then sends the bearer token, the JSON:API type and Accept-Language: en', async () => {
    const auth = authApi(client());
    const refused = await auth.login({ username: 'admin', password: 'nope' });
    expect(refused).toEqual({ success: false, data: { message: 'Invalid username or password.' } });
    const result = await auth.login({ username: 'admin', password: ADMIN_PASSWORD, code: '', lang: 'en' });
    expect(result.success).toBe(true);
    token = result.access ?? null;
    const me = await auth.me();
    expect(me.username).toBe('admin');
    expect(me.roles.map((r) => r.name).sort()).toEqual(['Admin', 'Super User']);
    const last = seen.at(-1)!;
    expect(last.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(last.headers.get('accept')).toBe('application/vnd.api+json');
    expect(last.headers.get('accept-language')).toBe('en');
  });

  it('creates, lists, checks uniqueness, updates and removes sponsors', async () => {
    const api = sponsorsApi(client());
    const [france] = (await countriesApi(client()).all()).items.filter((c) => c.isoCode === 'FR');
    const created = await api.create({ name: 'Client Co', identification: 'CLIENT', countryId: Number(france!.id) });
    expect(created).toMatchObject({ name: 'Client Co', countryName: 'France', isActive: true });
    expect(seen.at(-1)!.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(await api.isIdentificationUnique('CLIENT')).toBe(false);
    expect(await api.isIdentificationUnique('CLIENT', created.id)).toBe(true);
    expect(await api.isIdentificationUnique('OTHER')).toBe(true);
    const list = await api.list({ searchQuery: 'client' });
    expect(list.total).toBe(1);
    expect(list.items[0]?.id).toBe(created.id);
    expect((await api.update(created.id, { isActive: false })).isActive).toBe(false);
    await api.remove(created.id);
    await expect(api.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('throws ApiError with the joined details and the field errors', async () => {
    const api = sponsorsApi(client());
    const error = await api.create({ name: '', identification: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toBe('This field is required. This field is required.');
    expect((error as ApiError).errors.map((e) => e.source?.pointer)).toEqual(['/data/attributes/name', '/data/attributes/identification']);
  });

  it('turns an unreachable server into a readable ApiError', async () => {
    const broken = createApiClient({
      baseUrl: 'http://app.test/api',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(sponsorsApi(broken).list()).rejects.toMatchObject({ status: 0, message: UNREACHABLE_MESSAGE });
  });
});
