/**
 * Record-system providers managed in the product, on the real server and database: Super Users
 * create, change, rotate, test and delete them; other staff only read the picker's list. The
 * signing secret and a FHIR bearer token are write-only: this suite sends them and then looks
 * for them in every API answer, the audit trail, the server's log lines and the stored rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHarness, type Harness } from '../harness';
import { engagements, rmsProviders } from '../../../server/db/schema';
import { RMS_PROVIDER_MESSAGES } from '@core/model/rmsProvider';
import { newWebhookSecret, verifyStandardWebhook } from '../../support/standardWebhooks';
import { captureOutput } from '../../support/captureOutput';
import { startRecordSystem, type RecordSystemReceiver } from '../../support/recordSystemReceiver';

const T0 = new Date('2031-02-03T04:05:06.000Z');
const SECRET = newWebhookSecret();
const ROTATED = newWebhookSecret();
const BEARER = 'fhir-bearer-token-7b1c0d2e9a';
const MARKS = [SECRET, SECRET.slice(6), ROTATED, ROTATED.slice(6), BEARER];

let h: Harness;
let superToken: string;
let adminToken: string;
let receiver: RecordSystemReceiver;
let endpoint: string;
let status = 200;
const received = () => receiver.received;
let output: ReturnType<typeof captureOutput>;
/** Every API answer this suite saw, to look for the secrets in. */
let answers = '';

async function call(method: string, path: string, body?: unknown, token = superToken) {
  const res = await h.request(method, path, { token, body });
  const text = await res.text();
  answers += text;
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const provider = (attributes: Record<string, unknown>) => ({ data: { type: 'rms-providers', attributes } });
const pointers = (body: { errors: { source?: { pointer?: string } }[] }) => body.errors.map((e) => e.source?.pointer);

beforeAll(async () => {
  receiver = await startRecordSystem(() => ({ status, contentType: 'application/json', body: JSON.stringify({ seen: status === 200 }) }));
  endpoint = `${receiver.origin}/referrals`;
  output = captureOutput();
  h = await createHarness({ LOG_LEVEL: 'debug' });
  h.clock.set(T0);
  superToken = await h.token();
  await h.createUser({ username: 'provider-admin', password: 'provider-admin-pass', roles: ['Admin'] });
  adminToken = await h.token('provider-admin', 'provider-admin-pass');
});

afterAll(async () => {
  output?.restore();
  await receiver.close();
  await h.close();
});

describe('record-system providers', () => {
  let id: string;

  it('creates a webhook provider for Super Users, answering hasSecret and never the secret', async () => {
    const created = await call('POST', '/api/rms-providers', provider({ name: 'Sponsor CTMS', kind: 'webhook', endpoint, timeoutMs: 10_000, secret: SECRET }));
    expect(created.status).toBe(201);
    id = created.body.data.id;
    expect(created.body.data.attributes).toEqual({
      name: 'Sponsor CTMS',
      kind: 'webhook',
      isActive: true,
      endpoint,
      timeoutMs: 10_000,
      hasSecret: true,
      hasBearerToken: false,
      engagementCount: 0,
      created: T0.toISOString(),
      modified: T0.toISOString(),
    });
    // Sealed at rest: the stored row holds neither the secret nor its key bytes.
    const raw = JSON.stringify(await h.db.execute(sql`select * from rms_providers where id = ${Number(id)}`));
    expect(raw).toContain('phi1.');
    for (const mark of MARKS) expect(raw).not.toContain(mark);
  });

  it('refuses bad settings with a 422 pointing at each, and writes nothing', async () => {
    const before = (await h.db.select().from(rmsProviders)).length;
    const bad = await call(
      'POST',
      '/api/rms-providers',
      provider({ name: '', kind: 'smtp', endpoint: 'http://records.example.com/in', timeoutMs: 5, secret: 'not-a-secret' }),
    );
    expect(bad.status).toBe(422);
    expect(pointers(bad.body).sort()).toEqual([
      '/data/attributes/endpoint',
      '/data/attributes/kind',
      '/data/attributes/name',
      '/data/attributes/secret',
      '/data/attributes/timeoutMs',
    ]);
    const noSecret = await call('POST', '/api/rms-providers', provider({ name: 'Unsigned', kind: 'webhook', endpoint }));
    expect(noSecret.status).toBe(422);
    expect(noSecret.body.errors).toEqual([
      expect.objectContaining({ detail: RMS_PROVIDER_MESSAGES.secretRequired, source: { pointer: '/data/attributes/secret' } }),
    ]);
    const shortSecret = await call(
      'POST',
      '/api/rms-providers',
      provider({ name: 'Short', kind: 'webhook', endpoint, secret: `whsec_${Buffer.alloc(16).toString('base64')}` }),
    );
    expect(pointers(shortSecret.body)).toEqual(['/data/attributes/secret']);
    const bearerOnWebhook = await call(
      'POST',
      '/api/rms-providers',
      provider({ name: 'Bearer', kind: 'webhook', endpoint, secret: SECRET, bearerToken: BEARER }),
    );
    expect(pointers(bearerOnWebhook.body)).toEqual(['/data/attributes/bearerToken']);
    const taken = await call('POST', '/api/rms-providers', provider({ name: 'sponsor ctms', kind: 'none' }));
    expect(taken.status).toBe(409);
    expect((await h.db.select().from(rmsProviders)).length).toBe(before);
    // https anywhere, and http to this machine only.
    expect(
      (await call('POST', '/api/rms-providers', provider({ name: 'Hosted FHIR', kind: 'fhir', endpoint: 'https://fhir.example.org/r4', bearerToken: BEARER })))
        .status,
    ).toBe(201);
  });

  it('sends a marked test referral and answers what the receiver said', async () => {
    const ok = await call('POST', `/api/rms-providers/${id}/test`);
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      type: 'rms-provider-tests',
      attributes: { succeeded: true, status: 200, responseMessage: 'HTTP 200', durationMs: expect.any(Number) },
    });
    // Never what the receiver answered.
    expect(ok.body.data.attributes).not.toHaveProperty('responseBody');
    expect(JSON.stringify(ok.body)).not.toContain('seen');
    const hook = received().at(-1)!;
    expect(await verifyStandardWebhook(SECRET, hook.headers, hook.body, T0.getTime() / 1000)).toBe(true);
    expect(JSON.parse(hook.body)).toMatchObject({
      type: 'referral.test',
      data: { test: true, referralId: ok.body.data.id, engagement: { name: 'TEST: connection check' } },
    });

    status = 503;
    const failing = await call('POST', `/api/rms-providers/${id}/test`);
    expect(failing.body.data.attributes).toMatchObject({ succeeded: false, status: 503, responseMessage: 'HTTP 503' });
    status = 200;
  });

  it('rotates the secret: later pushes are signed with the new one, still never answered', async () => {
    const patched = await call('PATCH', `/api/rms-providers/${id}`, {
      data: { type: 'rms-providers', id, attributes: { secret: ROTATED, timeoutMs: 20_000 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ hasSecret: true, timeoutMs: 20_000 });
    await call('POST', `/api/rms-providers/${id}/test`);
    const hook = received().at(-1)!;
    expect(await verifyStandardWebhook(ROTATED, hook.headers, hook.body, T0.getTime() / 1000)).toBe(true);
    expect(await verifyStandardWebhook(SECRET, hook.headers, hook.body, T0.getTime() / 1000)).toBe(false);
    // The trail says which credential changed, never its value.
    const trail = await call('GET', `/api/audit-events?entity=rms-providers&limit=100`);
    const rotation = trail.body.data.find(
      (e: { attributes: { action: string; changes: Record<string, unknown> } }) => e.attributes.action === 'update' && 'secret' in e.attributes.changes,
    );
    expect(rotation.attributes.changes).toEqual({ secret: { old: '[redacted]', new: '[changed]' }, timeoutMs: { old: 10_000, new: 20_000 } });
    // Removing the secret of a webhook provider would leave its pushes unsigned.
    const unsigned = await call('PATCH', `/api/rms-providers/${id}`, { data: { type: 'rms-providers', attributes: { secret: null } } });
    expect(unsigned.status).toBe(422);
  });

  it('lets other staff read the picker (name and kind) but change nothing', async () => {
    const list = await call('GET', '/api/rms-providers', undefined, adminToken);
    expect(list.status).toBe(200);
    const mine = list.body.data.find((d: { id: string }) => d.id === id);
    expect(mine.attributes).toEqual({ name: 'Sponsor CTMS', kind: 'webhook', isActive: true });
    expect((await call('GET', `/api/rms-providers/${id}`, undefined, adminToken)).body.data.attributes).not.toHaveProperty('endpoint');
    expect((await call('POST', '/api/rms-providers', provider({ name: 'Mine', kind: 'none' }), adminToken)).status).toBe(403);
    expect((await call('PATCH', `/api/rms-providers/${id}`, { data: { type: 'rms-providers', attributes: { isActive: false } } }, adminToken)).status).toBe(
      403,
    );
    expect((await call('POST', `/api/rms-providers/${id}/test`, undefined, adminToken)).status).toBe(403);
    expect((await call('DELETE', `/api/rms-providers/${id}`, undefined, adminToken)).status).toBe(403);
    const superList = await call('GET', '/api/rms-providers?kind=webhook&sort=-name', undefined);
    expect(superList.body.data.every((d: { attributes: { kind: string } }) => d.attributes.kind === 'webhook')).toBe(true);
    expect((await call('GET', '/api/rms-providers?kind=smtp')).status).toBe(400);
  });

  it('refuses to delete a provider an engagement uses (409), and deletes it once unused', async () => {
    const [engagement] = await h.db.select({ id: engagements.id }).from(engagements).limit(1);
    if (!engagement) {
      // The seed has no engagements without demo data: make one through the API.
      const sponsor = await call('POST', '/api/sponsors', {
        data: { type: 'sponsors', attributes: { name: 'Provider sponsor', identification: 'PROV-SP', isActive: true } },
      });
      expect(sponsor.status).toBe(201);
      const made = await call('POST', '/api/engagements', {
        data: {
          type: 'engagements',
          attributes: { name: 'Provider study', identification: 'PROV-E1', sponsorId: Number(sponsor.body.data.id), rmsProviderId: Number(id) },
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    } else {
      await h.db
        .update(engagements)
        .set({ rmsProviderId: Number(id) })
        .where(eq(engagements.id, engagement.id));
    }
    const inUse = await call('DELETE', `/api/rms-providers/${id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.errors[0].detail).toBe(RMS_PROVIDER_MESSAGES.inUse(1));
    expect((await call('GET', `/api/rms-providers/${id}`)).body.data.attributes.engagementCount).toBe(1);
    await h.db
      .update(engagements)
      .set({ rmsProviderId: null })
      .where(eq(engagements.rmsProviderId, Number(id)));
    expect((await call('DELETE', `/api/rms-providers/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/rms-providers/${id}`)).status).toBe(404);
  });

  it('never shows a secret or token in an answer, the audit trail or a log line', async () => {
    const trail = await call('GET', '/api/audit-events?entity=rms-providers&limit=100');
    expect(trail.body.meta.total).toBeGreaterThan(3);
    const events = JSON.stringify(trail.body);
    expect(events).toContain('rms-test');
    for (const mark of MARKS) {
      expect(answers, 'API answers').not.toContain(mark);
      expect(events, 'audit trail').not.toContain(mark);
      expect(output.text(), 'log lines').not.toContain(mark);
    }
    // The log did record the requests (the capture is real).
    expect(output.text()).toContain('/api/rms-providers');
  });
});
