import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SURVEY_MESSAGES, SURVEY_MESSAGE_TYPES } from '@core/model/surveyMessage';
import { APPROVED_IMMUTABLE } from '@core/model/surveyDoc';
import { MESSAGE_EXISTS } from '../../../server/surveys/messages.routes';
import { createHarness, doc, json, type Harness } from '../harness';

let h: Harness;
let admin: string;
let user: string;
let formId: string;
let identity: string;

const api = async (method: string, path: string, body?: unknown, token = admin) => {
  const res = await h.request(method, `/api/o-forms/${path}`, { token, body });
  return { status: res.status, body: await json(res) };
};

async function sponsorEngagement(identification: string) {
  const sponsor = await json(await h.request('POST', '/api/sponsors', { token: admin, body: doc('sponsors', { name: identification, identification }) }));
  const engagement = await json(
    await h.request('POST', '/api/engagements', {
      token: admin,
      body: doc('engagements', { name: `Study ${identification}`, identification: `${identification}-E`, sponsorId: Number(sponsor.data.id) }),
    }),
  );
  return { sponsorId: Number(sponsor.data.id), engagementId: Number(engagement.data.id) };
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  const mine = await sponsorEngagement('MSG-OTHER');
  const form = await api('POST', 'o-forms', doc('o-forms', { title: 'Messages survey', engagementId: mine.engagementId }));
  formId = form.body.data.id;
  identity = form.body.data.attributes.identity;
  await sponsorEngagement('MSG-USER');
  await h.createUser({ username: 'msg-user', password: 'msg-user-pass', roles: ['User'] });
  user = await h.token('msg-user', 'msg-user-pass');
});
afterAll(async () => {
  await h.close();
});

describe('survey messages', () => {
  it('offers a default for each of the nine types in English and Spanish', async () => {
    const { status, body } = await api('GET', 'o-form-default-messages');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(18);
    const notQualifiedEs = body.data.find((m: { id: string }) => m.id === 'not_qualified_contact_form:es');
    expect(notQualifiedEs.attributes.message).toBe(DEFAULT_SURVEY_MESSAGES.not_qualified_contact_form.es);
    expect(new Set(body.data.map((m: { attributes: { messageType: string } }) => m.attributes.messageType))).toEqual(new Set(SURVEY_MESSAGE_TYPES));
  });

  it('writes a version’s message once per type and language, lists it by identity and version, and edits it', async () => {
    const created = await api(
      'POST',
      'o-form-messages',
      doc('o-form-messages', { oFormVersionId: Number(formId), messageType: 'completed_contact_form', language: 'es', message: '¡Gracias!' }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ oFormIdentity: identity, oFormVersionId: Number(formId), language: 'es' });
    const again = await api(
      'POST',
      'o-form-messages',
      doc('o-form-messages', { oFormVersionId: Number(formId), messageType: 'completed_contact_form', language: 'es', message: 'Otra' }),
    );
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toBe(MESSAGE_EXISTS);

    const listed = await api('GET', `o-form-messages?o_form_identity=${identity}&o_form_version_id=${formId}`);
    expect(listed.body.meta.total).toBe(1);
    const id = listed.body.data[0].id;
    const edited = await api('PATCH', `o-form-messages/${id}`, doc('o-form-messages', { message: '¡Muchas gracias!' }, id));
    expect(edited.status).toBe(200);
    expect(edited.body.data.attributes.message).toBe('¡Muchas gracias!');
  });

  it('refuses bad messages with pointers and writes nothing', async () => {
    const bad = await api(
      'POST',
      'o-form-messages',
      doc('o-form-messages', { oFormVersionId: Number(formId), messageType: 'welcome', language: 'xx-yy-zz', message: 5 }),
    );
    expect(bad.status).toBe(422);
    const pointers = bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/language', '/data/attributes/message', '/data/attributes/messageType']);
    const unknown = await api(
      'POST',
      'o-form-messages',
      doc('o-form-messages', { oFormVersionId: 999999, messageType: 'completed_contact_form', message: 'x' }),
    );
    expect(unknown.status).toBe(422);
    expect((await api('GET', `o-form-messages?o_form_version_id=${formId}`)).body.meta.total).toBe(1);
    expect((await api('GET', 'o-form-messages?o_form_version_id=abc')).status).toBe(400);
  });

  it('keeps another sponsor’s messages from a User', async () => {
    expect((await api('GET', `o-form-messages?o_form_version_id=${formId}`, undefined, user)).body.meta.total).toBe(0);
    const listed = await api('GET', `o-form-messages?o_form_version_id=${formId}`);
    const id = listed.body.data[0].id;
    expect((await api('PATCH', `o-form-messages/${id}`, doc('o-form-messages', { message: 'hacked' }, id), user)).status).toBe(404);
  });

  it('freezes the messages of an approved version', async () => {
    const listed = await api('GET', `o-form-messages?o_form_version_id=${formId}`);
    const id = listed.body.data[0].id;
    expect((await api('PATCH', `o-form-versions/${formId}`, doc('o-form-versions', { mark_approved: true }, formId))).status).toBe(200);
    const edit = await api('PATCH', `o-form-messages/${id}`, doc('o-form-messages', { message: 'changed' }, id));
    expect(edit.status).toBe(409);
    expect(edit.body.errors[0].detail).toBe(APPROVED_IMMUTABLE);
    const add = await api(
      'POST',
      'o-form-messages',
      doc('o-form-messages', { oFormVersionId: Number(formId), messageType: 'not_active_consent', message: 'x' }),
    );
    expect(add.status).toBe(409);
    expect((await api('GET', `o-form-messages?o_form_version_id=${formId}`)).body.data[0].attributes.message).toBe('¡Muchas gracias!');
  });
});
