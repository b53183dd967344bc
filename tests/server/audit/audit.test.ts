/**
 * The audit trail: staff writes and sign-ins recorded with old and new values, the database
 * refusing changes, the hash chain naming a tampered row, and the Super User's list and CSV.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { desc, sql } from 'drizzle-orm';
import { auditEvents } from '../../../server/db/schema';
import { verifyAuditChain } from '../../../server/audit/trail';
import { eventHash, GENESIS_HASH } from '../../../server/audit/chain';
import { csvCell } from '../../../server/http/csv';
import { ADMIN_PASSWORD, createHarness, json, type Harness } from '../harness';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../../server/app';
import type { Logger } from '../../../server/log';
import { contactMatcher } from '../../../server/security/contactMatch';

let h: Harness;
let superUser: string;

const events = () => h.db.select().from(auditEvents).orderBy(desc(auditEvents.id));
const sponsorBody = (attributes: Record<string, unknown>) => ({ data: { type: 'sponsors', attributes } });

beforeAll(async () => {
  h = await createHarness();
  // Events are stamped by the server's clock: one stated instant for this file, moved on where it matters.
  h.clock.set('2027-10-01T09:00:00Z');
  superUser = await h.token();
});
afterAll(async () => {
  await h.close();
});

describe('what is recorded', () => {
  it('a create, an update with old and new values, and a delete, each with who and when', async () => {
    const created = await json(await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Audited', identification: 'AUD-1' }) }));
    const id = created.data.id;
    h.clock.advance(60_000);
    await h.request('PATCH', `/api/sponsors/${id}`, { token: superUser, body: sponsorBody({ name: 'Audited Renamed', isActive: false }) });
    h.clock.advance(60_000);
    await h.request('DELETE', `/api/sponsors/${id}`, { token: superUser });

    const [del, upd, crt] = await events();
    expect(crt).toMatchObject({ entity: 'sponsors', entityId: id, action: 'create', actorUsername: 'admin' });
    expect(crt!.changes.name).toEqual({ old: null, new: 'Audited' });
    expect(upd).toMatchObject({ entity: 'sponsors', entityId: id, action: 'update' });
    expect(upd!.changes.name).toEqual({ old: 'Audited', new: 'Audited Renamed' });
    expect(upd!.changes.isActive).toEqual({ old: true, new: false });
    expect(upd!.changes).not.toHaveProperty('identification');
    expect(del).toMatchObject({ action: 'delete', entityId: id });
    expect(del!.changes.name).toEqual({ old: 'Audited Renamed', new: null });
    expect([crt, upd, del].map((e) => e!.occurredAt.toISOString())).toEqual([
      '2027-10-01T09:00:00.000Z',
      '2027-10-01T09:01:00.000Z',
      '2027-10-01T09:02:00.000Z',
    ]);
  });

  it("an update of a record's lists, with the lists' old and new names", async () => {
    const sponsor = await json(await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Listed', identification: 'LST-1' }) }));
    const indications = await json(await h.request('GET', '/api/indications', { token: superUser }));
    const idOf = (name: string) => indications.data.find((r: { attributes: { name: string } }) => r.attributes.name === name).id as string;
    const engagementBody = (attributes: Record<string, unknown>, names: string[], id?: string) => ({
      data: {
        type: 'engagements',
        ...(id ? { id } : {}),
        attributes,
        relationships: { indications: { data: names.map((n) => ({ type: 'indications', id: idOf(n) })) } },
      },
    });
    const created = await json(
      await h.request('POST', '/api/engagements', {
        token: superUser,
        body: engagementBody({ name: 'Listed study', identification: 'LST-E1', sponsorId: Number(sponsor.data.id) }, ['Asthma']),
      }),
    );
    const id = created.data.id;
    const res = await h.request('PATCH', `/api/engagements/${id}`, { token: superUser, body: engagementBody({}, ['Migraine', 'Asthma'], id) });
    expect(res.status).toBe(200);
    const [update] = await events();
    expect(update).toMatchObject({ entity: 'engagements', entityId: id, action: 'update' });
    expect(update!.changes).toEqual({ indications: { old: ['Asthma'], new: ['Asthma', 'Migraine'] } });
  });

  it('nothing for a refused write', async () => {
    const before = (await events()).length;
    await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: '' }) });
    expect((await events()).length).toBe(before);
  });

  it('updates of one record sent together: each old value is what the write before it left', async () => {
    const created = await json(
      await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Raced 0', identification: 'RACE-1' }) }),
    );
    const id = created.data.id as string;
    const names = Array.from({ length: 8 }, (_, i) => `Raced ${i + 1}`);
    const answers = await Promise.all(names.map((name) => h.request('PATCH', `/api/sponsors/${id}`, { token: superUser, body: sponsorBody({ name }) })));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));

    const updates = (await events()).filter((e) => e.entityId === id && e.action === 'update').reverse();
    expect(updates).toHaveLength(names.length);
    // Read apart from its write, two updates would both name 'Raced 0' (or another shared value) as old.
    const chain = updates.map((e) => e.changes.name as { old: string; new: string });
    expect(chain[0]!.old).toBe('Raced 0');
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.old).toBe(chain[i - 1]!.new);
    expect(new Set(chain.map((c) => c.new))).toEqual(new Set(names));
    const now = await json(await h.request('GET', `/api/sponsors/${id}`, { token: superUser }));
    expect(now.data.attributes.name).toBe(chain.at(-1)!.new);
  });

  it('sign-ins, successful and failed, with the reason and without secrets', async () => {
    await h.login('admin', 'wrong password');
    await h.login('nobody-at-all', 'x');
    await h.login('admin', ADMIN_PASSWORD);
    const [ok, unknown, wrong] = await events();
    expect(ok).toMatchObject({ action: 'sign_in', actorUsername: 'admin', entity: 'users' });
    expect(unknown).toMatchObject({ action: 'sign_in_failed', actorUserId: null, meta: { username: 'nobody-at-all', reason: 'invalid_credentials' } });
    expect(wrong).toMatchObject({ action: 'sign_in_failed', meta: { username: 'admin', reason: 'invalid_credentials' } });
    expect(JSON.stringify([ok, unknown, wrong])).not.toContain('wrong password');
  });
});

describe('old values are read only where the API can answer them', () => {
  it('no write makes a request bound to fail, and a question and a version carry their old values', async () => {
    // Every request the app answers: only the test's own, the audit reading old values without one.
    const answered: string[] = [];
    let sent = 0;
    const original = h.app.request.bind(h.app);
    const spy = vi.spyOn(h.app, 'request').mockImplementation(async (input, init, ...rest) => {
      const res = await original(input, init, ...rest);
      answered.push(`${res.status} ${init?.method ?? 'GET'} ${String(input)}`);
      return res;
    });
    try {
      const send = async (method: string, path: string, type: string, attributes: Record<string, unknown>, id?: string) => {
        sent++;
        const res = await h.request(method, `/api/${path}`, { token: superUser, body: { data: { type, ...(id ? { id } : {}), attributes } } });
        expect(res.status, `${method} ${path}`).toBeLessThan(300);
        return (await json(res)).data as { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string }[] }> };
      };
      const sponsor = await send('POST', 'sponsors', 'sponsors', { name: 'Reads', identification: 'READS' });
      const engagement = await send('POST', 'engagements', 'engagements', { name: 'Reads Study', identification: 'RS', sponsorId: Number(sponsor.id) });
      const form = await send('POST', 'o-forms/o-forms', 'o-forms', { title: 'Reads survey', engagementId: Number(engagement.id) });
      const page = form.relationships!.oFormContainers!.data[0]!.id;
      const field = await send('POST', 'o-forms/o-form-fields', 'o-form-fields', { containerId: Number(page), title: 'Age?' });
      await send('PATCH', `o-forms/o-form-fields/${field.id}`, 'o-form-fields', { title: 'Your age?' }, field.id);
      const [fieldEvent] = await events();
      expect(fieldEvent).toMatchObject({ entity: 'o-forms/o-form-fields', entityId: field.id, action: 'update' });
      expect(fieldEvent!.changes.title).toEqual({ old: 'Age?', new: 'Your age?' });
      await send('PATCH', `o-forms/o-form-versions/${form.id}`, 'o-form-versions', { mark_approved: true }, form.id);
      const [versionEvent] = await events();
      expect(versionEvent!.changes.isApproved).toEqual({ old: false, new: true });

      // Writes to members the API has no read for: links and switches.
      const screener = await send('POST', 'screeners', 'screeners', { title: 'Reads screener', sponsorId: Number(sponsor.id) });
      const link = await send('POST', 'screener-surveys', 'screener-surveys', { screenerId: Number(screener.id), oFormIdentity: form.attributes.identity });
      await send('PATCH', `screener-surveys/${link.id}`, 'screener-surveys', { displayOrder: 2 }, link.id);
      await send('PATCH', `screeners/surveys/${link.id}`, 'screener-surveys', { toggle_active: true }, link.id);
      const channel = await send('POST', 'media-channels', 'media-channels', {
        title: 'Reads page',
        domain: 'reads.example',
        screenerId: Number(screener.id),
        channelType: 'Other',
      });
      const served = await send('POST', 'media-channel-surveys', 'media-channel-surveys', {
        mediaChannelId: Number(channel.id),
        oFormIdentity: form.attributes.identity,
      });
      await send('PATCH', `media-channel-surveys/${served.id}`, 'media-channel-surveys', { isActive: false }, served.id);
      const legacy = await send('POST', 'surveys', 'surveys', { title: 'Legacy reads', engagementId: Number(engagement.id) });
      sent++;
      const legacyPage = (await json(await h.request('GET', `/api/surveys/${legacy.id}`, { token: superUser }))).data.attributes.pages[0].id as string;
      const question = await send('POST', 'questions', 'questions', { pageId: Number(legacyPage) });
      const option = await send('POST', 'options', 'options', { questionId: Number(question.id) });
      await send('PATCH', `pages/${legacyPage}`, 'pages', { title: 'First' }, legacyPage);
      await send('PATCH', `questions/${question.id}`, 'questions', { title: 'Smoker?' }, question.id);
      await send('PATCH', `options/${option.id}`, 'options', { label: 'Yes' }, option.id);
    } finally {
      spy.mockRestore();
    }
    expect(answered.filter((a) => !/^2\d\d /.test(a))).toEqual([]);
    // The two updates that can be read carry their old values (above) without a request of their own.
    expect(answered).toHaveLength(sent);
  });
});

describe("old values are read by the member read's own reader", () => {
  /** An app on the harness's database whose request log is kept: one line per request it answers. */
  function loggedApp() {
    const requests: string[] = [];
    const quiet = () => {};
    const log: Logger = {
      debug: quiet,
      info: (message, fields) => {
        if (message === 'request') requests.push(`${String(fields?.status)} ${String(fields?.method)} ${String(fields?.path)}`);
      },
      warn: quiet,
      error: quiet,
    };
    const app = createApp({
      db: h.db,
      config: h.config,
      jwtSecret: h.jwtSecret,
      log,
      phi: h.phi,
      contactMatch: contactMatcher(randomBytes(32)),
      clock: h.clock,
    });
    const send = (method: string, path: string, token: string, body?: unknown) =>
      app.request(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.api+json', 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    return { requests, send };
  }

  it('an update and a deletion are one request each: the request log names them alone', async () => {
    const { requests, send } = loggedApp();
    const created = await json(await send('POST', '/api/sponsors', superUser, sponsorBody({ name: 'Logged', identification: 'LOG-1' })));
    const id = created.data.id as string;
    expect((await send('PATCH', `/api/sponsors/${id}`, superUser, { data: { type: 'sponsors', id, attributes: { name: 'Logged Renamed' } } })).status).toBe(
      200,
    );
    const [update] = await events();
    expect(update).toMatchObject({ entityId: id, action: 'update' });
    expect(update!.changes.name).toEqual({ old: 'Logged', new: 'Logged Renamed' });
    expect((await send('DELETE', `/api/sponsors/${id}`, superUser)).status).toBe(204);
    const [deletion] = await events();
    expect(deletion).toMatchObject({ entityId: id, action: 'delete' });
    expect(deletion!.changes.name).toEqual({ old: 'Logged Renamed', new: null });
    expect(requests).toEqual(['201 POST /api/sponsors', `200 PATCH /api/sponsors/${id}`, `204 DELETE /api/sponsors/${id}`]);
  });

  it('reads as the writer: in their scope, and nothing for a write refused or out of it', async () => {
    const mine = await json(await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Scoped', identification: 'SCP-1' }) }));
    const other = await json(await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Other', identification: 'SCP-2' }) }));
    await h.createUser({ username: 'scoped-writer', roles: ['User'], sponsorIds: [Number(mine.data.id)] });
    const writer = await h.token('scoped-writer', 'a-good-password');
    const patch = (id: string, attributes: Record<string, unknown>) =>
      h.request('PATCH', `/api/sponsors/${id}`, { token: writer, body: { data: { type: 'sponsors', id, attributes } } });
    const count = async () => (await events()).length;

    const before = await count();
    expect((await patch(other.data.id, { name: 'Not mine' })).status).toBe(404);
    expect((await patch(mine.data.id, { name: '' })).status).toBe(422);
    expect(await count()).toBe(before);
    const unchanged = await json(await h.request('GET', `/api/sponsors/${mine.data.id}`, { token: superUser }));
    expect(unchanged.data.attributes.name).toBe('Scoped');

    expect((await patch(mine.data.id, { name: 'Scoped Renamed' })).status).toBe(200);
    const [update] = await events();
    expect(update).toMatchObject({ entityId: mine.data.id, action: 'update', actorUsername: 'scoped-writer' });
    expect(update!.changes.name).toEqual({ old: 'Scoped', new: 'Scoped Renamed' });
  });
});

describe('append-only and tamper-evident', () => {
  it('the database refuses to change or delete an event', async () => {
    const [latest] = await events();
    await expect(h.db.execute(sql`update audit_events set action = 'x' where id = ${latest!.id}`)).rejects.toThrow();
    await expect(h.db.execute(sql`delete from audit_events where id = ${latest!.id}`)).rejects.toThrow();
    expect((await verifyAuditChain(h.db)).ok).toBe(true);
  });

  it('the chain names a row changed behind the trigger, and one after a removed row', async () => {
    const all = await h.db.select().from(auditEvents).orderBy(auditEvents.id);
    expect(all.length).toBeGreaterThan(4);
    const changed = all[1]!;
    const afterRemoved = all[3]!;
    await behindTheTrigger(async () => {
      await h.db.execute(sql`update audit_events set changes = '{}'::jsonb where id = ${changed.id}`);
      const tampered = await verifyAuditChain(h.db);
      expect(tampered).toMatchObject({ ok: false, badId: changed.id });
      if (!tampered.ok) expect(tampered.reason).toContain('changed');

      await h.db.execute(sql`update audit_events set changes = ${JSON.stringify(changed.changes)}::jsonb where id = ${changed.id}`);
      expect((await verifyAuditChain(h.db)).ok).toBe(true);

      await h.db.execute(sql`delete from audit_events where id = ${all[2]!.id}`);
      const removed = await verifyAuditChain(h.db);
      expect(removed).toMatchObject({ ok: false, badId: afterRemoved.id });
      // The stored link names the removal: the next row's own content is as it was.
      if (!removed.ok) expect(removed.reason).toContain('link');
    }, [all[2]!]);
  });

  // Each of the two tamperings below is seen by one of the chain's two checks only.
  it('names the row after a removed one even when its stored link was mended to skip the gap', async () => {
    const all = await h.db.select().from(auditEvents).orderBy(auditEvents.id);
    const [before, removed, after] = [all[1]!, all[2]!, all[3]!];
    await behindTheTrigger(async () => {
      await h.db.execute(sql`delete from audit_events where id = ${removed.id}`);
      // Only a hash that covers the previous row's hash still remembers the removed row.
      await h.db.execute(sql`update audit_events set prev_hash = ${before.hash} where id = ${after.id}`);
      expect(await verifyAuditChain(h.db)).toMatchObject({ ok: false, badId: after.id });
    }, [removed, after]);
  });

  it('names a row whose stored link was changed, its content and hash left alone', async () => {
    const all = await h.db.select().from(auditEvents).orderBy(auditEvents.id);
    const row = all[2]!;
    await behindTheTrigger(async () => {
      // The walk recomputes each hash from the previous one, so only the stored link shows this.
      await h.db.execute(sql`update audit_events set prev_hash = ${'f'.repeat(64)} where id = ${row.id}`);
      const result = await verifyAuditChain(h.db);
      expect(result).toMatchObject({ ok: false, badId: row.id });
      if (!result.ok) expect(result.reason).toContain('link');
    }, [row]);
  });

  it("an event's hash covers the previous event's hash, not only its own content", () => {
    const content = {
      occurredAt: new Date('2027-10-01T09:00:00Z'),
      actorUserId: 1,
      actorUsername: 'admin',
      clientAddress: null,
      entity: 'sponsors',
      entityId: '1',
      action: 'create',
      changes: {},
      meta: {},
    };
    expect(eventHash(GENESIS_HASH, content)).not.toBe(eventHash('a'.repeat(64), content));
  });
});

/**
 * Tampers with the trail as someone with the database's owner rights could, then puts the
 * `original` rows back as they were, so the chain holds again for the next test.
 */
async function behindTheTrigger(tamper: () => Promise<void>, original: (typeof auditEvents.$inferSelect)[]) {
  await h.db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
  try {
    await tamper();
  } finally {
    for (const row of original) {
      await h.db.execute(sql`delete from audit_events where id = ${row.id}`);
      await h.db.insert(auditEvents).values(row);
    }
    await h.db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
  }
  expect(await verifyAuditChain(h.db)).toMatchObject({ ok: true });
}

describe('GET /api/audit-events', () => {
  it('is for Super Users only', async () => {
    await h.createUser({ username: 'plain-admin', password: 'plain-admin-pass', roles: ['Admin'] });
    const admin = await h.token('plain-admin', 'plain-admin-pass');
    expect((await h.request('GET', '/api/audit-events', { token: admin })).status).toBe(403);
    expect((await h.request('GET', '/api/audit-events?entity=sponsors', { token: admin })).status).toBe(403);
    expect((await h.request('GET', '/api/audit-events/export?entity=sponsors&entityId=1', { token: admin })).status).toBe(403);
    expect((await h.request('GET', '/api/audit-events')).status).toBe(401);
  });

  it("lets Admins read one record's history (its History panel), newest first, and no one else's", async () => {
    const admin = await h.token('plain-admin', 'plain-admin-pass');
    const created = await json(await h.request('POST', '/api/sponsors', { token: admin, body: sponsorBody({ name: 'Historic', identification: 'HIST-1' }) }));
    const id = created.data.id;
    await h.request('PATCH', `/api/sponsors/${id}`, { token: admin, body: sponsorBody({ name: 'Historic Renamed' }) });
    const doc = await json(await h.request('GET', `/api/audit-events?entity=sponsors&entityId=${id}&sort=-id&limit=10`, { token: admin }));
    expect(doc.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual(['update', 'create']);
    expect(doc.data[0].attributes).toMatchObject({ actorUsername: 'plain-admin', changes: { name: { old: 'Historic', new: 'Historic Renamed' } } });
    await h.createUser({ username: 'plain-user', password: 'plain-user-pass', roles: ['User'] });
    const user = await h.token('plain-user', 'plain-user-pass');
    expect((await h.request('GET', `/api/audit-events?entity=sponsors&entityId=${id}`, { token: user })).status).toBe(403);
  });

  it('lists newest first with filters, and has no route that writes', async () => {
    const doc = await json(await h.request('GET', '/api/audit-events?action=sign_in_failed&limit=10', { token: superUser }));
    expect(doc.meta.total).toBeGreaterThanOrEqual(2);
    expect(doc.data.every((e: { attributes: { action: string } }) => e.attributes.action === 'sign_in_failed')).toBe(true);
    expect((await h.request('GET', '/api/audit-events?from=yesterday', { token: superUser })).status).toBe(400);
    const [any] = await events();
    for (const method of ['PATCH', 'DELETE'] as const) {
      expect((await h.request(method, `/api/audit-events/${any!.id}`, { token: superUser, body: method === 'PATCH' ? { data: {} } : undefined })).status).toBe(
        404,
      );
    }
  });

  it('exports CSV with formula-looking cells neutralised', async () => {
    await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: '=HYPERLINK("http://evil")', identification: 'CSV-1' }) });
    const res = await h.request('GET', '/api/audit-events/export?entity=sponsors', { token: superUser });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    // Named for the day it was exported, by the server's clock.
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-events-2027-10-01.csv"');
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('id,occurredAt,actorUserId,actorUsername,clientAddress,entity,entityId,action,changes,meta,hash');
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('plain')).toBe('plain');
  });
});

describe('two-factor enrolment', () => {
  it('is recorded without the secret', async () => {
    const enrol = await json(await h.request('POST', '/api/users/me/totp', { token: superUser, body: { data: { type: 'totp', attributes: {} } } }));
    const secret = enrol.data?.attributes?.secret;
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    const [latest] = await events();
    expect(latest).toMatchObject({ entity: 'users/me/totp', action: 'create', actorUsername: 'admin' });
    expect(JSON.stringify(latest)).not.toContain(secret);
    expect(latest!.changes.secret).toEqual({ old: null, new: '[redacted]' });
  });
});

describe('nested resource paths', () => {
  it('record old and new values too', async () => {
    const sponsor = await json(await h.request('POST', '/api/sponsors', { token: superUser, body: sponsorBody({ name: 'Nested', identification: 'NEST' }) }));
    const engagement = await json(
      await h.request('POST', '/api/engagements', {
        token: superUser,
        body: { data: { type: 'engagements', attributes: { name: 'Nested study', identification: 'NEST-1', sponsorId: Number(sponsor.data.id) } } },
      }),
    );
    const created = await json(
      await h.request('POST', '/api/o-forms/o-forms', {
        token: superUser,
        body: { data: { type: 'o-forms', attributes: { title: 'Audited survey', engagementId: Number(engagement.data.id) } } },
      }),
    );
    expect(created.data?.id, JSON.stringify(created)).toBeTruthy();
    await h.request('PATCH', `/api/o-forms/o-forms/${created.data.id}`, {
      token: superUser,
      body: { data: { type: 'o-forms', id: created.data.id, attributes: { title: 'Audited survey v2' } } },
    });
    const [update] = await events();
    expect(update).toMatchObject({ entity: 'o-forms/o-forms', entityId: created.data.id, action: 'update' });
    expect(update!.changes.title).toEqual({ old: 'Audited survey', new: 'Audited survey v2' });
  });
});
