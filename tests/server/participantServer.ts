/**
 * The setup the participant API tests share: one harness with one participant fixture for the
 * file's tests, made before them and closed after them — once the record-system deliveries their
 * runs queued have settled, so that none writes into a closed database.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { contacts, leads, oFormSubmissions, screenerMessages } from '../../server/db/schema';
import { createLogger } from '../../server/log';
import { settleDeliveries } from '../../server/rms/worker';
import { rowWithId } from '../../server/db/rows';
import { createParticipantFixture, leaveContact, leaveLead, type ParticipantFixture } from '../support/participantFixture';
import { createHarness, type Harness } from './harness';

export interface ParticipantServer {
  h: Harness;
  f: ParticipantFixture;
}

export interface ParticipantServerOptions {
  /** The harness's environment. */
  env?: Record<string, string>;
  /** The server's clock, set before the fixture is made so that its rows are dated then. */
  at?: string | Date;
}

/**
 * `take` hands the harness and the fixture to the file's own variables once they are made; what
 * else the file's tests share it may add then (its promise, if it answers one, is awaited).
 */
export function useParticipantServer(take: (server: ParticipantServer) => unknown, options: ParticipantServerOptions = {}): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness(options.env);
    if (options.at) h.clock.set(options.at);
    await take({ h, f: await createParticipantFixture(h.db) });
  });
  afterAll(async () => {
    await settleDeliveries();
    await h?.close();
  });
}

/**
 * Leaves a run's contact (taken: a 201), lets the record-system deliveries it queued settle, and
 * answers the contact's row.
 */
export async function contactLeft(
  h: Harness,
  f: Pick<ParticipantFixture, 'engagementSiteLocationId'>,
  run: { submissionId: string; token: string },
  values: Record<string, unknown>,
): Promise<typeof contacts.$inferSelect> {
  const res = await leaveContact(h, f, run, values);
  expect(res.status, await res.clone().text()).toBe(201);
  await settleDeliveries();
  return (await contactOf(h, run))!;
}

/** The row a run left in `table` (its contact, its lead), if it left one. */
async function leftBy<T extends typeof contacts | typeof leads>(h: Harness, table: T, run: { submissionId: string }): Promise<T['$inferSelect'] | undefined> {
  const source: typeof contacts | typeof leads = table;
  const [row] = await h.db
    .select()
    .from(source)
    .where(eq(source.submissionId, Number(run.submissionId)));
  return row as T['$inferSelect'] | undefined;
}

/** The contact a run left, if it left one. */
export const contactOf = (h: Harness, run: { submissionId: string }) => leftBy(h, contacts, run);

/** A submission's row, by the id the API answers. */
export async function submissionRow(h: Harness, id: string): Promise<typeof oFormSubmissions.$inferSelect> {
  return (await rowWithId(h.db.select().from(oFormSubmissions), oFormSubmissions.id, Number(id)))!;
}

/** The lead a run left, if it left one. */
export const leadOf = (h: Harness, run: { submissionId: string }) => leftBy(h, leads, run);

/** Leaves a run's lead with `attributes` (taken: a 201) and answers the lead's row. */
export async function leadLeft(
  h: Harness,
  run: { submissionId: string; token: string },
  attributes: Record<string, unknown>,
): Promise<typeof leads.$inferSelect> {
  const res = await leaveLead(h, run, attributes);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await leadOf(h, run))!;
}

/** A second app on the harness's database and clock, configured by `env` (the shared harness keeps the defaults). */
export function secondApp(h: Harness, env: Record<string, string>) {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data', ...env });
  return createApp({ db: h.db, config, jwtSecret: h.jwtSecret, log: createLogger('silent'), clock: h.clock });
}

/** Two fixtures, each of its own sponsor; the admin's token, and that of a User of the first sponsor only, named `username`. */
export async function twoSponsors(h: Harness, username: string) {
  const a = await createParticipantFixture(h.db);
  const b = await createParticipantFixture(h.db);
  const admin = await h.token();
  await h.createUser({ username, password: `${username}-pass`, roles: ['User'], sponsorIds: [a.sponsorId] });
  const userA = await h.token(username, `${username}-pass`);
  return { a, b, admin, userA };
}

/** The screener's own noTrialSites message pair, in English with a Spanish translation. */
export async function addNoTrialSitesMessage(h: Harness, screenerId: number): Promise<void> {
  await h.db.insert(screenerMessages).values({
    screenerId,
    outcome: 'noTrialSites',
    contactFormMessage: '<p>No site near you yet.</p>',
    consentMessage: 'Contact me when a site opens near me.',
    translations: { es: { contactFormMessage: '<p>Aún no hay centro cerca.</p>', consentMessage: 'Contácteme cuando abra un centro cerca.' } },
  });
}
