import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close().catch(() => undefined);
});

describe('JSON:API error documents', () => {
  it('answers an unknown API route with 404 and an error document', async () => {
    const res = await h.request('GET', '/api/no-such-thing', { token: await h.token() });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    expect((await json(res)).errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
  });

  it('refuses a body over 1 MB with 413', async () => {
    const big = JSON.stringify({ data: { type: 'sponsors', attributes: { name: 'x'.repeat(1_100_000) } } });
    const res = await h.request('POST', '/api/sponsors', { token: await h.token(), body: big });
    expect(res.status).toBe(413);
    expect((await json(res)).errors[0].status).toBe('413');
  });

  it('decides by a declared Content-Length as HTTP clients send it: over 1 MB 413, else read', async () => {
    const big = JSON.stringify({ data: { type: 'sponsors', attributes: { name: 'x'.repeat(1_100_000) } } });
    const over = await h.request('POST', '/api/sponsors', { token: await h.token(), body: big, headers: { 'Content-Length': String(Buffer.byteLength(big)) } });
    expect(over.status).toBe(413);
    const small = JSON.stringify({ data: { type: 'sponsors', attributes: { name: '' } } });
    const read = await h.request('POST', '/api/sponsors', {
      token: await h.token(),
      body: small,
      headers: { 'Content-Length': String(Buffer.byteLength(small)) },
    });
    // Read and checked by the route (an empty name is refused), not stopped at the door.
    expect(read.status).toBe(422);
  });

  it('reports health: 200 while the database answers', async () => {
    const res = await h.app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers an unexpected failure with a 500 naming only a request id (no stack, no SQL)', async () => {
    const token = await h.token();
    // The database going away mid-flight is the unexpected failure.
    await h.close();
    const res = await h.request('GET', '/api/sponsors', { token });
    expect(res.status).toBe(500);
    const doc = await json(res);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.errors).toHaveLength(1);
    expect(doc.errors[0].status).toBe('500');
    expect(doc.errors[0].detail).toContain(requestId);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/select|from "|\bat \w+ \(|\.ts:\d+|PGlite|closed/i);

    // The same closed database makes the health check say so, for a load balancer to act on.
    const health = await h.app.request('/api/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
  });
});
