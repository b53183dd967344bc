import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, startServer, tempDataDir } from './server';

async function signIn(url: string) {
  const res = await fetch(`${url}/api/jwt/login?t=a`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { username: 'admin', password: E2E_ADMIN_PASSWORD } }),
  });
  return (await res.json()) as { access: string; refresh: string };
}

describe('the embedded database survives a restart', () => {
  it('reads on the second start what the first start wrote, and keeps the JWT secret', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, env: { DEMO_DATA: 'false' } });
    const { access, refresh } = await signIn(first.url);
    const created = await fetch(`${first.url}/api/sponsors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json', Authorization: `Bearer ${access}` },
      body: JSON.stringify({ data: { type: 'sponsors', attributes: { name: 'Persistent Pharma', identification: 'PERSIST' } } }),
    });
    expect(created.status).toBe(201);
    await first.stop();

    const second = await startServer({ dataDir, env: { DEMO_DATA: 'false' } });
    try {
      // The access token from the first run is still valid: the generated secret was kept.
      const list = await fetch(`${second.url}/api/sponsors?searchQuery=PERSIST`, { headers: { Authorization: `Bearer ${access}` } });
      expect(list.status).toBe(200);
      const doc = (await list.json()) as { data: { attributes: { name: string } }[] };
      expect(doc.data.map((s) => s.attributes.name)).toEqual(['Persistent Pharma']);
      const rotated = await fetch(`${second.url}/api/jwt/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: refresh }),
      });
      expect(rotated.status).toBe(200);
    } finally {
      await second.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad environment variable with a one-line message', async () => {
    await expect(startServer({ env: { PORT: 'eighty' } })).rejects.toThrow(/Configuration error: PORT must be a whole number/);
  });
});
