/**
 * The OpenAPI document against the server's real answers: every described GET under /api is
 * called (as the seeded admin, over the demo data), and each answer's status and media type must
 * be described, and its body valid against the schema described for them. A path with an `{id}`
 * is called with the first id its parent list answers; one whose ids cannot be found that way
 * is listed as not reached (and must stay a short list). The writes whose answers core
 * describes beyond a plain resource (meta-only documents, a second shape of a type, a test
 * delivery, an enrolment) are called too, each once, and checked the same way.
 */
import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../harness';
import { useParticipantServer } from '../participantServer';
import { channelSpends, contacts, messages } from '../../../server/db/schema';
import { settleDeliveries } from '../../../server/rms/worker';
import {
  answerPage,
  leaveContact,
  runQualified,
  sendReferralsTo,
  startSubmission,
  TOKEN_HEADER,
  type ParticipantFixture,
} from '../../support/participantFixture';
import { startRecordSystem } from '../../support/recordSystemReceiver';
import { newWebhookSecret, signStandardWebhook } from '../../support/standardWebhooks';
import { IDP_CERT, IDP_ISSUER } from '../../support/saml-idp';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let doc: Json;
let ajv: Ajv2020;
let token: string;
let f: ParticipantFixture;
let submissionId: string;

// Single sign-on configured, so its metadata page answers. The fixture brings a sponsor,
// engagements, a screener, a channel, a survey and a site; the run below, a referral to read.
useParticipantServer((server) => ({ h, f } = server), {
  env: {
    PUBLIC_URL: 'http://app.test',
    SSO_SERVICES: 'duo',
    SSO_DUO_ENTRY_POINT: 'http://idp.test/sso',
    SSO_DUO_CERT: IDP_CERT,
    SSO_DUO_IDP_ISSUER: IDP_ISSUER,
  },
});

beforeAll(async () => {
  doc = (await (await h.app.request('/api/openapi.json')).json()) as Json;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'openapi.json', components: { schemas: doc.components.schemas } });
  token = await h.token();
  const run = await runQualified(h, f);
  submissionId = run.submissionId;
  expect((await leaveContact(h, f, run, { first_name: 'Ada', email: 'ada@example.com', phone: '212-555-0100' })).status).toBe(201);
  // A lead (a run not qualified, its contact kept), so the leads' list and one lead are checked too.
  const lead = await startSubmission(h, f);
  const p1 = await answerPage(h, lead.token, lead.firstEntryId, { q_choice: 'no' });
  const p2 = await answerPage(h, lead.token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
  await answerPage(h, lead.token, p2.meta.nextContainerEntryId!, { q_zip: '10001', q_conditions: ['a'] });
  const left = await h.request('POST', `/api/o-forms/o-form-submission-lead/${lead.submissionId}`, {
    headers: { [TOKEN_HEADER]: lead.token },
    body: { data: { attributes: { values: { first_name: 'Orla', email: 'orla@example.org', phone: '646-555-0111' }, acceptTerms: true, zip: '10001' } } },
  });
  expect(left.status, await left.clone().text()).toBe(201);
  // A spend, so the funnel's cost figures and the spend's own answer are checked too.
  await h.db
    .insert(channelSpends)
    .values({ mediaChannelId: f.mediaChannelId, amountMinor: 50_000, currency: 'USD', periodStart: '2026-01-01', periodEnd: '2026-12-31' });
  // A legacy survey with a page, a question and an option tied to an engagement, so their nested answers are checked too.
  const created = async (path: string, type: string, attributes: Record<string, unknown>) => {
    const res = await h.request('POST', path, { token, body: { data: { type, attributes } } });
    expect(res.status, await res.clone().text()).toBe(201);
    return Number(((await res.json()) as { data: { id: string } }).data.id);
  };
  const surveyId = await created('/api/surveys', 'surveys', { title: 'Legacy check', engagementId: f.engagementIds[0] });
  const pageId = await created('/api/pages', 'pages', { surveyId });
  const questionId = await created('/api/questions', 'questions', { pageId, questionType: 'single', title: 'Which?' });
  const optionId = await created('/api/options', 'options', { questionId, label: 'Yes', value: 'yes', translations: { es: 'Sí' } });
  await created('/api/engagements-options', 'engagements-options', { engagementId: f.engagementIds[0], optionId, weight: 2 });
  // A fixture of several runs: more than the default 60 s on a loaded machine.
}, 180_000);

/** An id for a path whose parent is not a list of the same records. */
const KNOWN: [RegExp, () => string][] = [
  [/o-form-containers\//, () => String(f.pages.p1.id)],
  [/o-form-fields\//, () => String(f.fields.q_choice.id)],
  [/referrals\/counts|engagement/, () => String(f.engagementIds[0])],
  [/survey-page-metrics|export-survey-metrics|o-form-exports|o-forms\/o-forms|o-form-versions|missing-translations|surveys\/flow/, () => String(f.oFormId)],
  [/submission/, () => submissionId],
  [/media-channels/, () => String(f.mediaChannelId)],
  [/screener/, () => String(f.screenerId)],
];
/** Lists that answer only for one parent, named by a filter: called with the fixture's. */
const FILTERED: Record<string, () => string> = {
  '/api/contact-fields-screeners': () => `screenerId=${f.screenerId}`,
  '/api/screener-surveys': () => `screenerId=${f.screenerId}`,
  '/api/media-channel-surveys': () => `mediaChannelId=${f.mediaChannelId}`,
  '/api/site-coordinators': () => `siteLocationId=${f.siteLocationId}`,
};

/** Where a JSON:API answer holds a resource or a resource identifier whose id is not a string. */
function idsNotStrings(body: unknown): string[] {
  const out: string[] = [];
  const doc = body as { data?: unknown; included?: unknown };
  const identifier = (value: unknown, where: string) => {
    if (value && typeof value === 'object' && 'type' in value && 'id' in value && typeof (value as { id: unknown }).id !== 'string') {
      out.push(`${where}: ${JSON.stringify((value as { id: unknown }).id)}`);
    }
  };
  const resource = (value: unknown, where: string) => {
    if (!value || typeof value !== 'object') return;
    identifier(value, `${where}/id`);
    const relationships = (value as { relationships?: Record<string, { data?: unknown }> }).relationships ?? {};
    for (const [name, rel] of Object.entries(relationships)) {
      const data = rel?.data;
      if (Array.isArray(data)) data.forEach((d, i) => identifier(d, `${where}/relationships/${name}/data/${i}`));
      else identifier(data, `${where}/relationships/${name}/data`);
    }
  };
  if (Array.isArray(doc.data)) doc.data.forEach((r, i) => resource(r, `/data/${i}`));
  else resource(doc.data, '/data');
  if (Array.isArray(doc.included)) doc.included.forEach((r, i) => resource(r, `/included/${i}`));
  return out;
}

const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
function validatorOf(schema: Json) {
  const text = JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi.json#/components/schemas/');
  let fn = compiled.get(text);
  if (!fn) compiled.set(text, (fn = ajv.compile(JSON.parse(text))));
  return fn;
}

/**
 * What is wrong with `res` as the answer of `operation` (the document's), called as `called`: its
 * status and media type must be described, and a JSON body valid against the schema described.
 */
async function outOfDocument(operation: Json, called: string, res: Response): Promise<string[]> {
  const status = String(res.status);
  const response = operation.responses[status] as Json | undefined;
  if (!response) return [`${called}: ${status} is not described (${(await res.text()).slice(0, 200)})`];
  const resolved = response.$ref ? doc.components.responses[String(response.$ref).split('/').pop()!] : response;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = resolved.content as Json | undefined;
  if (!content) return [];
  const media = content[type];
  if (!media) return [`${called}: ${status} ${type} is not among ${Object.keys(content).join(', ')}`];
  if (!/json/.test(type) || !media.schema) return [];
  const validate = validatorOf(media.schema as Json);
  const body = (await res.json()) as unknown;
  const problems: string[] = [];
  // JSON:API's ids are strings, the resources' own and every related one alike.
  if (type === 'application/vnd.api+json') for (const at of idsNotStrings(body)) problems.push(`${called}: id not a string at ${at}`);
  if (!validate(body)) problems.push(`${called}: ${status} out of schema: ${ajv.errorsText(validate.errors?.slice(0, 3))}`);
  return problems;
}

/** The first id a list at `path` answers, or null. */
async function firstId(path: string): Promise<string | null> {
  const res = await h.request('GET', path, { token });
  if (!res.ok || !/vnd\.api\+json/.test(res.headers.get('content-type') ?? '')) return null;
  const body = (await res.json()) as { data?: unknown };
  return Array.isArray(body.data) && body.data.length ? String((body.data[0] as { id: unknown }).id) : null;
}

describe('every described GET, answered for real', () => {
  it('answers within its described status, media type and schema', async () => {
    const problems: string[] = [];
    const notReached: string[] = [];
    const refused: string[] = [];
    const reached: string[] = [];
    let checked = 0;
    for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const get = item.get as Json | undefined;
      if (!get || !template.startsWith('/api/') || template === '/api/openapi.json' || template.startsWith('/api/docs')) continue;
      let path = template;
      const params = [...template.matchAll(/\{(\w+)\}/g)];
      if (params.length > 1) {
        notReached.push(template);
        continue;
      }
      if (params.length === 1) {
        const parent = template.slice(0, template.indexOf('/{'));
        const id = (await firstId(parent)) ?? KNOWN.find(([pattern]) => pattern.test(template))?.[1]() ?? null;
        if (id === null) {
          notReached.push(template);
          continue;
        }
        path = template.replace(/\{\w+\}/, encodeURIComponent(id));
      }
      // Required query parameters with an id: the first of the list they name, when there is one, or FILTERED's.
      const required = ((get.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required && !FILTERED[template]?.().startsWith(`${p.name}=`));
      if (required.some((p) => p.name !== 'oFormId' && p.name !== 'engagementId')) {
        notReached.push(template);
        continue;
      }
      if (required.some((p) => p.name === 'oFormId'))
        path += `?oFormId=${f.oFormId}${template.endsWith('/o-form-containers') ? '&type=firstContainerPerForm' : ''}`;
      if (required.some((p) => p.name === 'engagementId')) path += `?engagementId=${f.engagementIds[0]}`;
      if (FILTERED[template]) path += `?${FILTERED[template]()}`;
      const res = await h.request('GET', path, { token });
      checked++;
      if (res.ok) reached.push(template);
      // A refusal is checked against the error's schema only: the answer's own would go untried.
      if (!res.ok) refused.push(`GET ${path}: ${res.status}`);
      problems.push(...(await outOfDocument(get, `GET ${path}`, res)));
    }
    // The check bites: the health answer's schema refuses what the server never says.
    const health = doc.paths['/api/health'].get.responses['200'].content['application/json'].schema as Json;
    expect(validatorOf(health)({ status: 'fine' })).toBe(false);
    // And a number where an id belongs is seen.
    expect(idsNotStrings({ data: [{ type: 'sponsors', id: '1', relationships: { country: { data: { type: 'countries', id: 7 } } } }] })).toEqual([
      '/data/0/relationships/country/data: 7',
    ]);
    if (process.env.OPENAPI_ANSWERS_REPORT) console.log(`${checked} answers checked; not reached:\n${notReached.join('\n')}\nrefused:\n${refused.join('\n')}`);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(96);
    // Among them the reads whose answers core describes beyond a type: the funnel's rows, the question pickers, a template's preview.
    expect(reached).toEqual(
      expect.arrayContaining([
        '/api/recruitment-funnel',
        '/api/o-forms/o-form-field-types',
        '/api/o-forms/o-form-field-categories',
        '/api/message-templates/{id}/preview',
      ]),
    );
    // What this test cannot reach yet: paths with two ids, required query parameters, or no row to read.
    // (A message to read and an unsubscribe token exist only once mail was sent.)
    expect(notReached.length, notReached.join('\n')).toBeLessThanOrEqual(4);
    // Some ninety calls in turn: more than the default 30 s on a loaded machine.
  }, 120_000);
});

describe('the writes whose answers core describes, answered for real', () => {
  it('answers each within its described status, media type and schema', async () => {
    const SECRET = newWebhookSecret();
    const receiver = await startRecordSystem();
    const problems: string[] = [];
    const called: string[] = [];
    /** Calls `method path` (its document's path `template`) and checks the answer; each must succeed, or its own schema goes untried. */
    const call = async (method: string, template: string, path: string, options: Parameters<Harness['request']>[2] = {}) => {
      const operation = doc.paths[template]?.[method.toLowerCase()] as Json | undefined;
      if (!operation) throw new Error(`${method} ${template} is not in the document`);
      const res = await (options.body instanceof FormData
        ? h.app.request(path, { method, headers: { Authorization: `Bearer ${token}` }, body: options.body })
        : h.request(method, path, { token, ...options }));
      called.push(`${method} ${template}`);
      if (!res.ok) problems.push(`${method} ${path}: ${res.status} ${(await res.clone().text()).slice(0, 300)}`);
      problems.push(...(await outOfDocument(operation, `${method} ${path}`, res.clone())));
      return res;
    };
    const idOf = async (res: Response) => ((await res.clone().json()) as { data: { id: string } }).data.id;
    try {
      const providerId = await sendReferralsTo(h.db, f, {
        name: 'Answers check',
        endpointUrl: `${receiver.origin}/referrals`,
        signingSecret: h.phi.seal(SECRET),
      });
      const [contact] = await h.db.select({ id: contacts.id }).from(contacts).limit(1);
      const contactId = contact!.id;

      await call('POST', '/api/rms-providers/{id}/test', `/api/rms-providers/${providerId}/test`);
      // To the record system now named; `again`, as the contact (left before there was one) may stand delivered already.
      await call('POST', '/api/resend-rms-audit/{contactId}', `/api/resend-rms-audit/${contactId}?again=true`);
      await call('POST', '/api/resend-rms-audit', '/api/resend-rms-audit');
      const report = JSON.stringify({ contactId, status: 'in-screening' });
      await call('POST', '/api/rms-callback', '/api/rms-callback', {
        token: undefined,
        body: report,
        headers: {
          'Content-Type': 'application/json',
          ...(await signStandardWebhook(SECRET, 'msg_answers_1', Math.floor(h.clock().getTime() / 1000), report)),
        },
      });

      await call('POST', '/api/engagements-screeners/update/{screenerId}', `/api/engagements-screeners/update/${f.screenerId}`, {
        body: { data: { type: 'engagements-screeners', attributes: { engagementIds: f.engagementIds } } },
      });
      const clone = await call('POST', '/api/screeners/{id}/clone', `/api/screeners/${f.screenerId}/clone`, {
        body: { data: { type: 'screeners', attributes: { title: 'Answers check (clone)' } } },
      });
      await call('PATCH', '/api/screeners/update-surveys/{id}', `/api/screeners/update-surveys/${await idOf(clone)}`);

      const leads = (await (await h.request('GET', '/api/leads', { token })).json()) as { data: { id: string }[] };
      await call('POST', '/api/leads/{id}/reveal', `/api/leads/${leads.data[0]!.id}/reveal`);
      // No mail goes out here: a message as the outbox keeps one, its address sealed.
      const [message] = await h.db
        .insert(messages)
        .values({
          kind: 'participantConfirmation',
          audience: 'participant',
          recipientLabel: 'participant',
          toCiphertext: h.phi.seal('ada@example.com'),
          subject: 'Thank you',
          messageId: '<answers-check@recruit.example>',
        })
        .returning({ id: messages.id });
      await call('POST', '/api/messages/{id}/reveal', `/api/messages/${message!.id}/reveal`);

      const study = JSON.parse(fs.readFileSync(new URL('../../fixtures/clinicaltrials-gov/NCT06388018-trimmed.json', import.meta.url), 'utf8')) as unknown;
      for (const action of ['preview', 'import'])
        await call('POST', `/api/clinicaltrials-gov/${action}/{engagementId}`, `/api/clinicaltrials-gov/${action}/${f.engagementIds[1]}`, {
          body: { data: { type: 'clinicaltrials-gov-imports', attributes: { study } } },
        });
      const sites = new FormData();
      sites.set('file', new Blob([fs.readFileSync(new URL('../../fixtures/sites-example.csv', import.meta.url))], { type: 'text/csv' }), 'sites.csv');
      await call('POST', '/api/engagements-site-locations/upload/{engagementId}', `/api/engagements-site-locations/upload/${f.engagementIds[0]}`, {
        body: sites,
      });

      await call('GET', '/jwt/saml/metadata/{service}', '/jwt/saml/metadata/duo', { token: undefined });
      // Last: it leaves the admin a pending (unverified) second factor.
      await call('POST', '/api/users/me/totp', '/api/users/me/totp');
    } finally {
      await settleDeliveries();
      await receiver.close();
    }
    expect(problems).toEqual([]);
    expect(called.sort()).toEqual(
      [
        'GET /jwt/saml/metadata/{service}',
        'PATCH /api/screeners/update-surveys/{id}',
        'POST /api/clinicaltrials-gov/import/{engagementId}',
        'POST /api/clinicaltrials-gov/preview/{engagementId}',
        'POST /api/engagements-screeners/update/{screenerId}',
        'POST /api/engagements-site-locations/upload/{engagementId}',
        'POST /api/leads/{id}/reveal',
        'POST /api/messages/{id}/reveal',
        'POST /api/resend-rms-audit',
        'POST /api/resend-rms-audit/{contactId}',
        'POST /api/rms-callback',
        'POST /api/rms-providers/{id}/test',
        'POST /api/screeners/{id}/clone',
        'POST /api/users/me/totp',
      ].sort(),
    );
    // The check bites: a test delivery's answer without its duration is out of its schema.
    const test = doc.paths['/api/rms-providers/{id}/test'].post.responses['201'].content['application/vnd.api+json'].schema as Json;
    const answer = { data: { type: 'rms-provider-tests', id: 'x', attributes: { succeeded: true, status: 200, responseMessage: 'OK' } } };
    expect(validatorOf(test)(answer)).toBe(false);
    expect(validatorOf(test)({ data: { ...answer.data, attributes: { ...answer.data.attributes, durationMs: 3 } } })).toBe(true);
  }, 120_000);
});
