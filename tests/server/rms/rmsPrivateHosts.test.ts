/**
 * Record-system endpoints cannot reach this server's own networks: an endpoint on a loopback,
 * private, link-local, unique-local or metadata address is refused when saved (422) and when
 * connected to (a name that resolves there later, as DNS rebinding would), unless
 * RMS_ALLOW_PRIVATE_HOSTS lists it; and "Send test" answers status, timing and a classified
 * failure, never the receiver's body nor which network error it was.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, type Harness } from '../harness';
import { rmsProviders } from '../../../server/db/schema';
import { loadConfig } from '../../../server/config';
import { isPrivateAddress, PRIVATE_HOST_REFUSED } from '../../../server/security/privateHosts';
import { TEST_UNREACHABLE } from '../../../server/rms/attempt';
import { newWebhookSecret } from '../../support/standardWebhooks';
import { startRecordSystem, type RecordSystemReceiver } from '../../support/recordSystemReceiver';

const SECRET = newWebhookSecret();

let closed: Harness;
let allowed: Harness;
let receiver: RecordSystemReceiver;

beforeAll(async () => {
  receiver = await startRecordSystem(() => ({ status: 200, contentType: 'application/json', body: '{"internal":"secret-service-answer"}' }));
  // Nothing private allowed, as a default deployment.
  closed = await createHarness({ RMS_ALLOW_PRIVATE_HOSTS: '' });
  allowed = await createHarness({ RMS_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
});

afterAll(async () => {
  await receiver.close();
  await closed?.close();
  await allowed?.close();
});

const tokens = new Map<Harness, string>();
const tokenOf = async (h: Harness) => tokens.get(h) ?? tokens.set(h, await h.token()).get(h)!;

const create = async (h: Harness, name: string, endpoint: string, timeoutMs = 5000) =>
  h.request('POST', '/api/rms-providers', {
    token: await tokenOf(h),
    body: { data: { type: 'rms-providers', attributes: { name, kind: 'webhook', endpoint, secret: SECRET, timeoutMs } } },
  });

const sendTest = async (h: Harness, id: number | string) => h.request('POST', `/api/rms-providers/${id}/test`, { token: await tokenOf(h) });

describe('record-system endpoints on private networks', () => {
  it('knows the private ranges, in every spelling of an address', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.1.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses to save an endpoint on a private, loopback, link-local, unique-local or metadata address, writing nothing', async () => {
    const before = (await closed.db.select().from(rmsProviders)).length;
    const endpoints = [
      `${receiver.origin}/in`,
      'http://localhost:8080/in',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/in',
      'https://172.16.4.4/in',
      'https://192.168.1.10/in',
      'https://[fe80::1]/in',
      'https://[fd00::1]/in',
      'https://[::ffff:169.254.169.254]/in',
      'https://[::ffff:7f00:1]/in',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://records.localhost/in',
    ];
    for (const [i, endpoint] of endpoints.entries()) {
      const res = await create(closed, `Private ${i}`, endpoint);
      expect(res.status, endpoint).toBe(422);
      const body = await res.json();
      expect(body.errors, endpoint).toEqual([expect.objectContaining({ detail: PRIVATE_HOST_REFUSED, source: { pointer: '/data/attributes/endpoint' } })]);
    }
    expect((await closed.db.select().from(rmsProviders)).length).toBe(before);
    // A public address is saved as before.
    expect((await create(closed, 'Public', 'https://93.184.216.34/in')).status).toBe(201);
  });

  it('refuses to connect when the endpoint resolves to a private address at sending time (as after DNS rebinding)', async () => {
    // Saved while its name pointed elsewhere: the row is written as the save would have.
    const [row] = await closed.db
      .insert(rmsProviders)
      .values({
        name: 'Rebound',
        kind: 'webhook',
        endpointUrl: `${receiver.origin.replace('127.0.0.1', 'localhost')}/in`,
        signingSecret: SECRET,
        timeoutMs: 5000,
      })
      .returning();
    const before = receiver.received.length;
    const res = await sendTest(closed, row!.id);
    expect(res.status).toBe(201);
    expect((await res.json()).data.attributes).toMatchObject({ succeeded: false, status: null, responseMessage: PRIVATE_HOST_REFUSED });
    expect(receiver.received.length).toBe(before);
    await closed.db.delete(rmsProviders).where(eq(rmsProviders.id, row!.id));
  });

  it('reaches a host RMS_ALLOW_PRIVATE_HOSTS lists, and shows its status and timing but never its body', async () => {
    const made = await create(allowed, 'On premise', `${receiver.origin}/in`);
    expect(made.status).toBe(201);
    const res = await sendTest(allowed, (await made.json()).data.id);
    const text = await res.text();
    expect(JSON.parse(text).data.attributes).toEqual({ succeeded: true, status: 200, responseMessage: 'HTTP 200', durationMs: expect.any(Number) });
    expect(text).not.toContain('secret-service-answer');
  });

  it('tells a closed port and a silent one apart in no way but the time taken', async () => {
    // A port nothing listens on: bound once for its number, then let go.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    try {
      const answers = [];
      for (const [name, port] of [
        ['Closed port', closedPort],
        ['Silent port', silentPort],
      ] as const) {
        const made = await create(allowed, name, `http://127.0.0.1:${port}/in`, 1000);
        expect(made.status).toBe(201);
        answers.push((await (await sendTest(allowed, (await made.json()).data.id)).json()).data.attributes);
      }
      for (const answer of answers) expect(answer).toMatchObject({ succeeded: false, status: null, responseMessage: TEST_UNREACHABLE });
    } finally {
      silent.close();
    }
  });

  it('refuses an RMS_ALLOW_PRIVATE_HOSTS entry that is no host, address or range', () => {
    expect(() => loadConfig({ RMS_ALLOW_PRIVATE_HOSTS: '10.0.0.0/99' })).toThrow(/RMS_ALLOW_PRIVATE_HOSTS/);
    expect(() => loadConfig({ RMS_ALLOW_PRIVATE_HOSTS: 'http://x' })).toThrow(/RMS_ALLOW_PRIVATE_HOSTS/);
    expect(loadConfig({ RMS_ALLOW_PRIVATE_HOSTS: 'records.lan, 10.1.2.0/24,::1' }).rmsAllowPrivateHosts.names.has('records.lan')).toBe(true);
  });
});
