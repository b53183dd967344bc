/**
 * A site that opens mails the leads it was matched to, on the real server and database with a
 * real SMTP server (smtp-server on 127.0.0.1, parsed with mailparser): the noTrialSites lead
 * within reach gets one mail in its language naming the study, the site and its town, with
 * one-click unsubscribe and none of what it left besides its address; the match and its mail are
 * written together, so the match made once never mails again; nothing when the engagement has
 * the message off, when the site is out of reach, or to an address that unsubscribed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createHarness, doc, type Harness } from '../harness';
import { mailEnv, useMessageReceiver } from './messageReceiver';
import { createParticipantFixture, runQualified, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtpReceiver';
import { engagements, leadSiteMatches, messages, siteLocations } from '../../../server/db/schema';
import { milesNorthOf } from '../milesNorth';
import { settleMessages } from '../../../server/messages/worker';

let h: Harness;
let smtp: SmtpReceiver;
let f: ParticipantFixture;
let admin: string;
const ZIP = '99501';
const ADA = { first_name: 'Ottoline', email: 'adalinde.north@example.org', phone: '907-555-0100' };
const BEA = { first_name: 'Beatrix', email: 'beatrix.south@example.org', phone: '907-555-0177' };

async function keepLead(values: Record<string, string>, language = 'en') {
  const run = await runQualified(h, f, { zip: ZIP, language });
  const res = await h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, {
    headers: { [TOKEN_HEADER]: run.token },
    body: { data: { attributes: { values, acceptTerms: true, zip: ZIP } } },
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function openSiteNorth(miles: number): Promise<number> {
  const [site] = await h.db
    .insert(siteLocations)
    .values({
      name: `Northern Lights Clinic ${miles}`,
      city: 'Anchorage',
      state: 'AK',
      zipCode: ZIP,
      ...milesNorthOf(ZIP, miles),
    })
    .returning();
  const res = await h.request('POST', '/api/engagements-site-locations', {
    token: admin,
    body: { data: { type: 'engagements-site-locations', attributes: { engagementId: f.engagementIds[0], siteLocationId: site!.id } } },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  await settleMessages();
  return Number((await res.json()).data.id);
}

const setSiteOpened = async (isEnabled: boolean) => {
  const res = await h.request('PATCH', `/api/message-settings/${f.engagementIds[0]}.siteOpened`, {
    token: admin,
    body: doc('message-settings', { isEnabled, delayMinutes: 0 }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  h = await createHarness(mailEnv(smtp));
  h.clock.set('2031-09-01T12:00:00Z');
  f = await createParticipantFixture(h.db);
  admin = await h.token();
  await h.db.update(engagements).set({ radius: 50 }).where(eq(engagements.id, f.engagementIds[0]));
  await keepLead(ADA);
  await keepLead(BEA, 'es');
});

useMessageReceiver(() => ({ h, receiver: smtp }));

describe('a site that opens within reach of kept leads', () => {
  it('with the message off, matches them and mails nobody', async () => {
    const linkId = await openSiteNorth(12);
    expect(await h.db.select().from(leadSiteMatches).where(eq(leadSiteMatches.engagementSiteLocationId, linkId))).toHaveLength(2);
    expect(smtp.received).toHaveLength(0);
    expect(await h.db.select().from(messages).where(eq(messages.kind, 'siteOpened'))).toHaveLength(0);
  });

  it('with it on, mails each lead once, in its language, with nothing it left but its address', async () => {
    await setSiteOpened(true);
    const linkId = await openSiteNorth(10);
    const [ada] = mailsTo(ADA.email);
    expect(mailsTo(ADA.email)).toHaveLength(1);
    expect(ada!.parsed.subject).toMatch(/^A study site has opened near you: /);
    expect(ada!.parsed.text).toContain('Northern Lights Clinic 10 (Anchorage)');
    expect(ada!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const decoded = `${ada!.raw}\n${ada!.parsed.text}\n${ada!.parsed.html}`.toLowerCase();
    for (const value of [ADA.first_name, ADA.phone, '5550100', ZIP]) expect(decoded).not.toContain(value.toLowerCase());
    const [bea] = mailsTo(BEA.email);
    expect(bea!.parsed.subject).toMatch(/^Se ha abierto un centro del estudio cerca de usted: /);
    // One message per new match, written with it and sent.
    const rows = await h.db.select().from(messages).where(eq(messages.kind, 'siteOpened'));
    expect(rows.map((r) => [r.status, r.recipientLabel, r.engagementId])).toEqual([
      ['sent', 'participant', f.engagementIds[0]],
      ['sent', 'participant', f.engagementIds[0]],
    ]);
    expect(await h.db.select().from(leadSiteMatches).where(eq(leadSiteMatches.engagementSiteLocationId, linkId))).toHaveLength(2);

    // The link changed again (no new match): no second mail.
    smtp.received.splice(0);
    const res = await h.request('PATCH', `/api/engagements-site-locations/${linkId}`, {
      token: admin,
      body: { data: { type: 'engagements-site-locations', id: String(linkId), attributes: { radius: 40 } } },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await settleMessages();
    expect(smtp.received).toHaveLength(0);
  });

  it('out of reach mails nobody, and an address that unsubscribed hears of no other site', async () => {
    await openSiteNorth(90);
    expect(smtp.received).toHaveLength(0);

    const [row] = await h.db
      .select()
      .from(messages)
      .where(and(eq(messages.kind, 'siteOpened'), eq(messages.language, 'en')));
    const posted = await h.app.request(`/api/message-unsubscribe/${row!.unsubscribeToken}`, { method: 'POST' });
    expect(posted.status).toBe(200);
    await openSiteNorth(5);
    expect(mailsTo(ADA.email)).toHaveLength(0);
    expect(mailsTo(BEA.email)).toHaveLength(1);
  });
});
