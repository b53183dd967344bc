/**
 * PHI key rotation: a cipher opens what its previous keys sealed and seals with its current key
 * only; the re-seal (npm run phi:reseal) seals contacts, answers and record-system secrets again
 * with the current key, so the previous key can go, and gives contacts lacking them their keyed
 * e-mail and phone hashes. On the real database, after real runs.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, isNotNull } from 'drizzle-orm';
import { createHarness, type Harness } from '../harness';
import { createParticipantFixture, leaveContact, type ParticipantFixture, runQualified } from '../../support/participantFixture';
import { contacts, leads, messages, oFormFieldEntries, referralEvents, referrals, rmsProviders } from '../../../server/db/schema';
import { loadConfig, ConfigError } from '../../../server/config';
import { phiCipher, phiKeyId, PhiError } from '../../../server/security/phi';
import { contactMatcher } from '../../../server/security/contactMatch';
import { resealAll } from '../../../server/reseal/reseal';

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const old = phiCipher(OLD);
const rotated = phiCipher(NEW, [OLD]);
const matcher = contactMatcher(randomBytes(32));

describe('a cipher with previous keys', () => {
  it('opens what any of its keys sealed, seals with the current one, and names a key it lacks', () => {
    const sealed = old.seal('1980-06-15');
    expect(rotated.keyId).toBe(phiKeyId(NEW));
    expect(rotated.keyIds).toEqual([phiKeyId(NEW), phiKeyId(OLD)]);
    expect(rotated.open(sealed)).toBe('1980-06-15');
    expect(rotated.keyIdOf(rotated.seal('x'))).toBe(phiKeyId(NEW));
    expect(rotated.keyIdOf('not sealed')).toBeNull();
    expect(() => phiCipher(NEW).open(sealed)).toThrow(new PhiError(`Sealed with another key (${phiKeyId(OLD)}); this server holds ${phiKeyId(NEW)}.`));
  });

  it('takes PHI_PREVIOUS_KEYS as keys separated by commas or spaces, refusing a bad one by name', () => {
    expect(loadConfig({}).phiPreviousKeys).toEqual([]);
    expect(loadConfig({ PHI_PREVIOUS_KEYS: `${OLD.toString('base64')}, ${'ab'.repeat(32)}` }).phiPreviousKeys).toEqual([OLD, Buffer.alloc(32, 0xab)]);
    expect(() => loadConfig({ PHI_PREVIOUS_KEYS: `${OLD.toString('hex')},short` })).toThrow(
      new ConfigError('PHI_PREVIOUS_KEYS must be 32 bytes, as base64 or 64 hex characters'),
    );
  });
});

describe('re-sealing with the current key', () => {
  let h: Harness;
  let f: ParticipantFixture;
  const contactIds: number[] = [];

  beforeAll(async () => {
    // The server runs with the old key, as before the rotation.
    h = await createHarness({}, { phi: old, contactMatch: matcher });
    f = await createParticipantFixture(h.db);
    for (const [email, phone] of [
      ['ann@example.com', '212-555-0100'],
      ['bo@example.com', '303-555-0123'],
    ]) {
      const { submissionId, token } = await runQualified(h, f);
      const res = await leaveContact(h, f, { submissionId, token }, { first_name: 'Ann', email, phone });
      expect(res.status, await res.text()).toBe(201);
      contactIds.push(
        (
          await h.db
            .select()
            .from(contacts)
            .where(eq(contacts.submissionId, Number(submissionId)))
        )[0]!.id,
      );
    }
    // A contact stored before its hashes were kept.
    await h.db.update(contacts).set({ emailMatch: null, phoneMatch: null }).where(eq(contacts.id, contactIds[1]!));
    await h.db.insert(leads).values({
      kind: 'noTrialSites',
      engagementIds: f.engagementIds,
      valuesCiphertext: old.seal('{"email":"lead@example.com"}'),
      zipCiphertext: old.seal('99501'),
      consentedAt: new Date(),
      consentText: 'Yes',
      consentTextSha256: 'x',
    });
    // Staff notes on a referral: its reason and an attempt's note on its timeline.
    const [referral] = await h.db
      .update(referrals)
      .set({ reasonNoteCiphertext: old.seal('Moved to Ohio') })
      .where(eq(referrals.contactId, contactIds[0]!))
      .returning({ id: referrals.id });
    await h.db.insert(referralEvents).values({
      referralId: referral!.id,
      occurredAt: new Date(),
      kind: 'attempt',
      actorName: 'admin',
      channel: 'phone',
      result: 'voicemail',
      noteCiphertext: old.seal('Call after 5'),
    });
    await h.db.insert(messages).values({
      kind: 'participantConfirmation',
      audience: 'participant',
      recipientLabel: 'participant',
      toCiphertext: old.seal('ann@example.com'),
      subject: 'Thank you',
      bodyCiphertext: old.seal('{"text":"t","html":"h"}'),
      messageId: '<reseal@recruit.example>',
    });
    await h.db
      .insert(rmsProviders)
      .values({ name: 'Rotated receiver', kind: 'webhook', endpointUrl: 'https://rms.example/hook', signingSecret: old.seal('whsec_secret'), timeoutMs: 5000 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('seals every contact, answer and secret again with the new key, keeps what they say, and backfills the missing hashes', async () => {
    const answersBefore = await h.db.select().from(oFormFieldEntries).where(isNotNull(oFormFieldEntries.sealedValue));
    expect(answersBefore.length).toBeGreaterThan(0);
    const contactsBefore = await h.db.select().from(contacts);
    const done = await resealAll(h.db, rotated, matcher);
    expect(done).toEqual({ contacts: 2, contactHashes: 1, answers: answersBefore.length, clearAnswers: 0, secrets: 1, leads: 1, notes: 2, messages: 1 });
    const [sealedMessage] = await h.db.select().from(messages);
    expect(sealedMessage!.toCiphertext.startsWith(rotated.currentPrefix) && phiCipher(NEW).open(sealedMessage!.toCiphertext) === 'ann@example.com').toBe(true);
    expect(phiCipher(NEW).open(sealedMessage!.bodyCiphertext!)).toBe('{"text":"t","html":"h"}');
    const [lead] = await h.db.select().from(leads);
    expect([phiCipher(NEW).open(lead!.valuesCiphertext), phiCipher(NEW).open(lead!.zipCiphertext!)]).toEqual(['{"email":"lead@example.com"}', '99501']);
    const [noted] = await h.db.select().from(referrals).where(eq(referrals.contactId, contactIds[0]!));
    const [event] = await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, noted!.id));
    expect([phiCipher(NEW).open(noted!.reasonNoteCiphertext!), phiCipher(NEW).open(event!.noteCiphertext!)]).toEqual(['Moved to Ohio', 'Call after 5']);

    // Nothing the old key sealed is left: the new key alone opens everything, to the same values.
    const current = phiCipher(NEW);
    const answersAfter = await h.db.select().from(oFormFieldEntries).where(isNotNull(oFormFieldEntries.sealedValue));
    for (const a of answersAfter) {
      expect(current.keyIdOf(a.sealedValue!)).toBe(current.keyId);
      expect(current.open(a.sealedValue!)).toBe(old.open(answersBefore.find((b) => b.id === a.id)!.sealedValue!));
    }
    for (const c of await h.db.select().from(contacts)) {
      expect(current.open(c.valuesCiphertext)).toBe(old.open(contactsBefore.find((b) => b.id === c.id)!.valuesCiphertext));
    }
    const [provider] = await h.db.select().from(rmsProviders).where(eq(rmsProviders.name, 'Rotated receiver'));
    expect(current.open(provider!.signingSecret!)).toBe('whsec_secret');

    // The backfilled hashes are the ones a contact stored now would get.
    const [backfilled] = await h.db.select().from(contacts).where(eq(contacts.id, contactIds[1]!));
    expect(backfilled).toMatchObject({ emailMatch: matcher.email('bo@example.com'), phoneMatch: matcher.phone('303-555-0123') });
    const [kept] = await h.db.select().from(contacts).where(eq(contacts.id, contactIds[0]!));
    expect(kept!.emailMatch).toBe(matcher.email('ann@example.com'));
  });

  it('finds nothing to do a second time', async () => {
    expect(await resealAll(h.db, rotated, matcher)).toEqual({
      contacts: 0,
      contactHashes: 0,
      answers: 0,
      clearAnswers: 0,
      secrets: 0,
      leads: 0,
      notes: 0,
      messages: 0,
    });
  });

  it("recomputes every contact's hashes with --rehash, after the match key changed", async () => {
    const next = contactMatcher(randomBytes(32));
    expect((await resealAll(h.db, rotated, next, { rehash: true })).contactHashes).toBe(2);
    const [first] = await h.db.select().from(contacts).where(eq(contacts.id, contactIds[0]!));
    expect(first).toMatchObject({ emailMatch: next.email('ann@example.com'), phoneMatch: next.phone('212-555-0100') });
  });
});
