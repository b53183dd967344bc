/**
 * The demo's referrals: most generated runs that chose a site leave a (fictional) contact, sealed
 * like any other, delivered already (never pushed anywhere), and worked up the status ladder by a
 * made-up site team — contact attempts, status changes and reasons as the timeline would show
 * them — so the queue, the site performance view and the funnel's stages after delivery all have
 * something to show, down to randomization. Older referrals stand further along; the newest are
 * still new. Deterministic, like the rest of the demo.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { ContactChannel, ContactResult, ReferralStatus } from '@core/model/referral';
import type { PhiCipher } from '../security/phi';
import type { Tx } from '../db/open';
import { contacts, engagementSiteLocations, referralEvents, referralReasons, referrals, rmsAudits, rmsDeliveries } from '../db/schema';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export const FIRST = ['Ava', 'Ben', 'Carmen', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Kira', 'Luis', 'Maya', 'Noah', 'Olga', 'Priya'];
export const LAST = [
  'Adams',
  'Brooks',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jones',
  'Khan',
  'Lopez',
  'Moreau',
  'Nguyen',
  'Okafor',
  'Patel',
];
const TEAM = ['demo.coordinator', 'demo.nurse'];
/** The record system the demo's referrals went to; it is an example, so no provider row exists. */
export const DEMO_RECORD_SYSTEM = 'Northwind CRO record system (example)';
const RETRY_AFTER_MS = 60_000;

/** One successful push of a demo referral, as the record-system outbox would have audited it. */
const demoAudit = (contactId: number, attempt: number, at: Date) => ({
  contactId,
  rmsProviderId: null,
  rmsProviderName: DEMO_RECORD_SYSTEM,
  succeeded: true,
  attempt,
  responseMessage: 'HTTP 201 Created',
  responseBody: '',
  created: at,
});

/** Where a referral of this age ends, drawn with `r` in [0, 1). */
function finalStatus(ageDays: number, r: number): ReferralStatus {
  if (ageDays < 1) return r < 0.7 ? 'new' : 'attempting-contact';
  if (ageDays < 4) return r < 0.2 ? 'new' : r < 0.55 ? 'attempting-contact' : r < 0.85 ? 'contacted' : 'scheduled';
  if (ageDays < 10)
    return r < 0.15
      ? 'attempting-contact'
      : r < 0.35
        ? 'contacted'
        : r < 0.55
          ? 'scheduled'
          : r < 0.8
            ? 'in-screening'
            : r < 0.9
              ? 'not-reachable'
              : 'withdrawn';
  const weights: [ReferralStatus, number][] = [
    ['not-reachable', 0.12],
    ['withdrawn', 0.08],
    ['scheduled', 0.05],
    ['in-screening', 0.1],
    ['screen-failed', 0.22],
    ['eligible', 0.13],
    ['enrolled', 0.3],
  ];
  let acc = 0;
  for (const [status, w] of weights) if (r < (acc += w)) return status;
  return 'enrolled';
}

/** The statuses a referral climbs to reach `final` (not counting new). */
function climb(final: ReferralStatus): ReferralStatus[] {
  const main: ReferralStatus[] = ['attempting-contact', 'contacted', 'scheduled', 'in-screening'];
  switch (final) {
    case 'new':
      return [];
    case 'not-reachable':
      return ['attempting-contact', 'not-reachable'];
    case 'withdrawn':
      return ['attempting-contact', 'contacted', 'withdrawn'];
    case 'screen-failed':
      return [...main, 'screen-failed'];
    case 'eligible':
      return [...main, 'eligible'];
    case 'enrolled':
      return [...main, 'eligible', 'enrolled'];
    default:
      return main.slice(0, main.indexOf(final) + 1);
  }
}

export interface DemoReferralRun {
  submissionId: number;
  created: Date;
}

/** Contacts, deliveries, referrals and their timelines for `runs` (runs that chose a site). */
export async function seedDemoReferrals(tx: Tx, phi: PhiCipher, engagementId: number, runs: DemoReferralRun[], random: () => number, now: Date): Promise<void> {
  if (runs.length === 0) return;
  const links = await tx
    .select({ id: engagementSiteLocations.id })
    .from(engagementSiteLocations)
    .where(and(eq(engagementSiteLocations.engagementId, engagementId), eq(engagementSiteLocations.isActive, true)))
    .orderBy(engagementSiteLocations.id);
  if (links.length === 0) return;
  const reasons = await tx
    .select({ id: referralReasons.id, status: referralReasons.status })
    .from(referralReasons)
    .where(inArray(referralReasons.status, ['screen-failed', 'withdrawn', 'not-reachable']))
    .orderBy(referralReasons.id);
  const reasonFor = (status: ReferralStatus) => {
    const list = reasons.filter((r) => r.status === status);
    return list.length ? list[Math.floor(random() * list.length)]!.id : null;
  };

  // Drawn first, written in a few batched statements (a start must not wait on thousands).
  type Planned = {
    contact: typeof contacts.$inferInsert;
    made: Date;
    referral: Omit<typeof referrals.$inferInsert, 'contactId'>;
    events: (typeof referralEvents.$inferInsert)[];
  };
  const planned: Planned[] = [];
  for (const [i, run] of runs.entries()) {
    const first = FIRST[Math.floor(random() * FIRST.length)]!;
    const last = LAST[Math.floor(random() * LAST.length)]!;
    const made = new Date(run.created.getTime() + 5 * 60_000);
    if (made.getTime() > now.getTime()) continue;
    // Busier sites get more: the first site half, the rest shared.
    const link = links[random() < 0.5 ? 0 : 1 + Math.floor(random() * Math.max(1, links.length - 1))] ?? links[0]!;
    const values = {
      first_name: first,
      last_name: last,
      email: `${first}.${last}.${i}@example.com`.toLowerCase(),
      phone: `212-555-${String(1000 + i).slice(-4)}`,
      zip_code: '10118',
    };
    const contact = {
      submissionId: run.submissionId,
      engagementId,
      engagementSiteLocationId: link.id,
      language: 'en',
      valuesCiphertext: phi.seal(JSON.stringify(values)),
      acceptTerms: true,
      consentedAt: made,
      created: made,
    };
    const ageDays = (now.getTime() - made.getTime()) / DAY;
    const steps = climb(finalStatus(ageDays, random()));
    // The team works the referral over a part of its age: first call within a day or two.
    let t = made.getTime() + (2 + random() * 30) * HOUR;
    const limit = now.getTime() - 10 * 60_000;
    const events: (typeof referralEvents.$inferInsert)[] = [];
    let status = 'new' as ReferralStatus;
    let attempts = 0;
    let lastAttemptAt: Date | null = null;
    let firstContactAt: Date | null = null;
    let statusChanged: Date | null = null;
    let reasonId: number | null = null;
    const actor = TEAM[Math.floor(random() * TEAM.length)]!;
    const attempt = (channel: ContactChannel, result: ContactResult) => {
      const at = new Date(t);
      events.push({ occurredAt: at, kind: 'attempt', actorName: actor, channel, result, referralId: 0 });
      attempts += 1;
      lastAttemptAt = at;
      if (result === 'reached' && firstContactAt === null) firstContactAt = at;
    };
    const move = (to: ReferralStatus) => {
      const at = new Date(t);
      const reason = to === 'screen-failed' || to === 'withdrawn' || to === 'not-reachable' ? reasonFor(to) : null;
      events.push({ occurredAt: at, kind: 'status', actorName: actor, fromStatus: status, toStatus: to, reasonId: reason, referralId: 0 });
      if (to === 'contacted' && firstContactAt === null) firstContactAt = at;
      status = to;
      statusChanged = at;
      reasonId = reason;
    };
    for (const step of steps) {
      if (t > limit) break;
      if (step === 'attempting-contact') {
        move(step);
        attempt('phone', random() < 0.5 ? 'no-answer' : 'voicemail');
        t += (4 + random() * 20) * HOUR;
      } else if (step === 'not-reachable') {
        for (let k = 0; k < 2 && t <= limit; k++) {
          attempt(k === 0 ? 'sms' : 'phone', 'no-answer');
          t += (12 + random() * 24) * HOUR;
        }
        if (t <= limit) move(step);
      } else if (step === 'contacted') {
        attempt('phone', 'reached');
        move(step);
        t += (1 + random() * 3) * DAY;
      } else {
        move(step);
        t += (step === 'scheduled' ? 2 + random() * 5 : 1 + random() * 6) * DAY;
      }
    }
    const open = !['screen-failed', 'enrolled', 'withdrawn', 'not-reachable'].includes(status);
    // An open referral still being called has its next attempt planned.
    const nextAttemptDue = open && status === 'attempting-contact' && lastAttemptAt ? new Date((lastAttemptAt as Date).getTime() + DAY) : null;
    planned.push({
      contact,
      made,
      events,
      referral: {
        engagementId,
        engagementSiteLocationId: link.id,
        status,
        reasonId,
        statusChanged,
        firstContactAt:
          firstContactAt ??
          (['contacted', 'scheduled', 'in-screening', 'screen-failed', 'eligible', 'enrolled', 'withdrawn'].includes(status) ? statusChanged : null),
        attempts,
        lastAttemptAt,
        nextAttemptDue,
        isScreened: ['in-screening', 'screen-failed', 'eligible', 'enrolled'].includes(status),
        isRandomized: status === 'enrolled',
        created: made,
      },
    });
  }
  for (let i = 0; i < planned.length; i += 300) {
    const batch = planned.slice(i, i + 300);
    const contactIds = await tx
      .insert(contacts)
      .values(batch.map((p) => p.contact))
      .returning({ id: contacts.id });
    // Every referral reached the sponsor's record system; now and then only at the second try.
    const deliveries = batch.map((p, j) => ({ contactId: contactIds[j]!.id, made: p.made, retried: (i + j) % 13 === 5 }));
    await tx.insert(rmsDeliveries).values(
      deliveries.map((d) => {
        const deliveredAt = d.retried ? new Date(d.made.getTime() + RETRY_AFTER_MS) : d.made;
        return { contactId: d.contactId, status: 'delivered', attempts: d.retried ? 2 : 1, lastAttemptAt: deliveredAt, deliveredAt };
      }),
    );
    await tx.insert(rmsAudits).values(
      deliveries.flatMap((d) => [
        ...(d.retried
          ? [
              {
                ...demoAudit(d.contactId, 1, d.made),
                succeeded: false,
                responseMessage: 'HTTP 503 Service Unavailable',
                responseBody: '{"error":"maintenance window"}',
              },
            ]
          : []),
        demoAudit(d.contactId, d.retried ? 2 : 1, d.retried ? new Date(d.made.getTime() + RETRY_AFTER_MS) : d.made),
      ]),
    );
    const referralIds = await tx
      .insert(referrals)
      .values(batch.map((p, j) => ({ ...p.referral, contactId: contactIds[j]!.id })))
      .returning({ id: referrals.id });
    const events = batch.flatMap((p, j) => p.events.map((e) => ({ ...e, referralId: referralIds[j]!.id })));
    if (events.length) await tx.insert(referralEvents).values(events);
  }
}
