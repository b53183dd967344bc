/**
 * A run of the demo channel (server/demo's seedDemoRun) as the widget makes it, through the
 * participant transport against the harness's app, to a completed referral: the messages tests
 * drive it and then look at what the outbox wrote and sent.
 */
import { createRunner } from '@core/survey/runner';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantTransport } from '@core/participant/transport';
import { settleMessages } from '../../server/messages/worker';
import type { Harness } from '../server/harness';
import { later } from './runnerLater';

export interface DemoChannelRun {
  language: 'en' | 'es';
  /** The contact values given, by field name. */
  values: Record<string, string>;
  /** The separate SMS consent box as it was left (a string: a malformed value); undefined: not sent. */
  smsConsent?: boolean | string;
}

/** The contact values of the `n`th participant: none of it may reach a staff message. */
export const demoPerson = (n: number) => ({
  first_name: `Zelda${n}`,
  last_name: `Fitzgerald${n}`,
  email: `zelda${n}.fitz@example.com`,
  phone: `212-555-01${10 + n}`,
  zip_code: '10001',
});

export async function runDemoChannel(harness: Harness, channel: { mediaChannelId: number; screenerId: number }, run: DemoChannelRun) {
  const origin = 'http://product.test';
  const transport = createParticipantTransport({
    apiOrigin: origin,
    mediaChannelId: String(channel.mediaChannelId),
    screenerId: String(channel.screenerId),
    pageUrl: 'https://healthy-living.example/article',
    check: checkParticipantAnswer,
    fetch: (async (url: string | URL | Request, init?: RequestInit) => harness.app.request(String(url).replace(origin, ''), init)) as typeof fetch,
  });
  // The SMS consent text the contact form offered, if any.
  let offered: string | undefined;
  const fields = transport.contactFields;
  transport.contactFields = async (id) => {
    const got = await fields(id);
    offered = (got.messages as { sms?: string } | undefined)?.sms;
    return got;
  };
  const { smsConsent } = run;
  if (smsConsent !== undefined) {
    const submit = transport.submitContact;
    transport.submitContact = (id, contact) => submit(id, { ...contact, smsConsent: smsConsent as boolean });
  }
  const runner = createRunner({ later, transport, identity: '', chooseLanguage: () => run.language });
  await runner.start();
  runner.answer('demo-age', '18-64');
  runner.answer('demo-diagnosed', 'yes');
  await runner.next();
  runner.answer('demo-treatment', ['pills', 'diet']);
  runner.answer('demo-visits', '7');
  await runner.next();
  runner.answer('demo-zip', '10001');
  await runner.next();
  await runner.chooseSite(runner.getState().sites[0]!.id);
  for (const [name, value] of Object.entries(run.values)) runner.setContact(name, value);
  runner.submitContact();
  runner.accept(true);
  await runner.submitConsent();
  await settleMessages();
  return { state: runner.getState(), offered };
}
