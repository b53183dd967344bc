/**
 * The participant transport's contact steps (core/participant/transport.ts) with the core runner against
 * the real server, every call sent as from the partner's page: ZIP, sites, contact form,
 * consent, completed — and the server's 422s arriving as the runner's field problems.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Harness } from '../harness';
import { runQualified, type ParticipantFixture } from '../../support/participantFixture';
import { useParticipantServer } from '../participantServer';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantTransport } from '@core/participant/transport';
import { createRunner, type RunnerState } from '@core/survey/runner';
import { message } from '@core/validation/messages';
import { contacts, referrals } from '../../../server/db/schema';
import { settleDeliveries } from '../../../server/rms/worker';
import { later } from '../../support/runnerLater';
import { rowsWhere } from '../rowsWhere';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

function transport() {
  const fromPartner: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    request.headers.set('Origin', `https://${f.domain}`);
    return h.app.request(request);
  };
  const api = createParticipantTransport({
    apiOrigin: 'http://localhost',
    mediaChannelId: String(f.mediaChannelId),
    fetch: fromPartner,
    check: checkParticipantAnswer,
  });
  return { api, transport: api };
}

const settle = async (runner: { getState(): RunnerState }, phases: RunnerState['phase'][]) => {
  for (let i = 0; i < 400 && !phases.includes(runner.getState().phase); i++) await new Promise((r) => setTimeout(r, 5));
  return runner.getState();
};

describe('the contact steps over the participant transport', () => {
  it('runs from the ZIP answer to a completed contact', async () => {
    const { api, transport: t } = transport();
    const runner = createRunner({ later, transport: t, identity: '' });
    await runner.start();
    runner.answer('q_choice', 'skip');
    await runner.next();
    runner.answer('q_zip', '07030');
    await runner.next();
    let state = await settle(runner, ['sites', 'finished', 'failed']);
    expect(state.phase).toBe('sites');
    expect(state.sites.map((s) => s.id)).toEqual([String(f.engagementSiteLocationId)]);
    expect(state.sites[0]!.distanceMiles).toBeLessThan(5);

    await runner.chooseSite(String(f.engagementSiteLocationId));
    state = runner.getState();
    expect(state.phase).toBe('contact');
    expect(state.contactFields.map((c) => c.name)).toEqual(['first_name', 'email', 'phone']);
    runner.setContact('first_name', 'Ada');
    runner.setContact('email', 'ada@example.com');
    runner.setContact('phone', '212-555-0100');
    runner.submitContact();
    expect(runner.getState().phase).toBe('consent');
    runner.accept(true);
    await runner.submitConsent();
    state = runner.getState();
    expect(state.phase).toBe('finished');
    expect(state.outcome).toBe('completed');
    expect(state.messages.contactForm).toContain('Thank you');

    await settleDeliveries();
    const [contact] = await h.db
      .select()
      .from(contacts)
      .where(eq(contacts.submissionId, Number(api.submissionId())));
    expect(JSON.parse(h.phi.open(contact!.valuesCiphertext))).toEqual({ first_name: 'Ada', email: 'ada@example.com', phone: '212-555-0100' });
    expect(await h.db.select().from(referrals).where(eq(referrals.contactId, contact!.id))).toHaveLength(1);
  });

  it("gives the server's 422s as field problems: an unknown ZIP, a contact value, the consent", async () => {
    const { submissionId, token } = await runQualified(h, f);
    const { api, transport: t } = transport();
    api.resume(submissionId, token);

    expect(await t.sites(submissionId, '99999')).toEqual({ ok: false, errors: { zip: message('zip_unknown') } });
    const far = await t.sites(submissionId, '08540');
    expect(far).toMatchObject({ ok: true, outcome: 'noTrialSites', sites: [] });

    const { fields, messages } = await t.contactFields(submissionId);
    expect(fields.map((c) => [c.name, c.fieldType, c.required])).toEqual([
      ['first_name', 'text', true],
      ['email', 'email', true],
      ['phone', 'phone', true],
    ]);
    expect(messages?.contactForm).toContain('choosing a study site');

    const refused = await t.submitContact(submissionId, {
      engagementSiteLocationId: String(f.engagementSiteLocationId),
      values: { first_name: 'Ada', email: 'nope', phone: '212-555-0100' },
      acceptTerms: false,
    });
    expect(refused).toEqual({ ok: false, errors: { email: message('email'), acceptTerms: message('acceptTerms') } });
    expect(await rowsWhere(h.db, contacts.submissionId, Number(submissionId))).toHaveLength(0);
  });
});
