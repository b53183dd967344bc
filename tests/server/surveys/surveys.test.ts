import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { oFormContainers, oFormFields, oFormMessages, oForms } from '../../../server/db/schema';
import { DOB_PAGE_IS_TARGET } from '@core/survey/authoring';
import { ALREADY_APPROVED, APPROVED_IMMUTABLE, TRANSITION_PAGE_INVALID, TRANSITION_SURVEY_INVALID, UNKNOWN_IDENTITY } from '@core/model/surveyDoc';
import { FIELD_TYPES } from '@core/model/survey';
import { json, useHarness, type Harness } from '../harness';
import { pointers, resourceCalls } from '../resourceCalls';
import { rowsWhere } from '../rowsWhere';
import { expectTitleAndKnownEngagementRequired } from '../surveyWrites';
import { rowWithId } from '../../../server/db/rows';
import { scopedEngagements } from '../staffRecords';

let h: Harness;
let admin: string;
let engagementId: string;
let otherEngagementId: string;
let userToken: string;

const { post, patch, del } = resourceCalls(
  () => h,
  '/api/o-forms',
  () => admin,
);

interface Included {
  type: string;
  id: string;
  attributes: Record<string, any>;
  relationships?: Record<string, { data: any }>;
}
interface Page {
  id: string;
  identity: string;
  title: string;
  translations: Record<string, { title?: string }>;
  displayOrder: number;
  fields: { id: string; identity: string; title: string; type: string; displayOrder: number; configuration: any }[];
}

/** The survey with its pages and their fields, read through GET ?include=... */
async function getForm(id: string, token = admin) {
  const res = await h.request('GET', `/api/o-forms/o-forms/${id}?include=oFormContainers.oFormFields.tags,engagement.sponsor,languages`, { token });
  expect(res.status).toBe(200);
  const body = await json(res);
  const included = (body.included ?? []) as Included[];
  const byId = (type: string, rid: string) => included.find((r) => r.type === type && r.id === rid)!;
  const pages: Page[] = (body.data.relationships.oFormContainers.data as { id: string }[]).map(({ id: cid }) => {
    const c = byId('o-form-containers', cid);
    return {
      id: cid,
      identity: c.attributes.identity,
      title: c.attributes.title,
      translations: c.attributes.translations,
      displayOrder: c.attributes.displayOrder,
      fields: (c.relationships!.oFormFields!.data as { id: string }[]).map(
        ({ id: fid }) => ({ id: fid, ...byId('o-form-fields', fid).attributes }) as Page['fields'][number],
      ),
    };
  });
  return { attributes: body.data.attributes as Record<string, any>, pages, included };
}

async function newForm(title = 'Versioned survey', engagement = engagementId, token = admin) {
  const { res, body } = await post('o-forms', 'o-forms', { title, engagementId: Number(engagement) }, token);
  expect(res.status).toBe(201);
  return body.data as { id: string; attributes: { identity: string; version: number; containerCount: number } };
}
async function addPage(formId: string, attributes: Record<string, unknown> = {}) {
  const { res, body } = await post('o-form-containers', 'o-form-containers', { oFormId: Number(formId), ...attributes });
  expect(res.status).toBe(201);
  return body.data as { id: string; attributes: { identity: string; title: string; displayOrder: number } };
}
async function addField(containerId: string, attributes: Record<string, unknown> = {}) {
  return post('o-form-fields', 'o-form-fields', { containerId: Number(containerId), ...attributes });
}
const option = (label: string, value: string, extra: Record<string, unknown> = {}) => ({ label, value, ...extra });
const rowCount = async (table: typeof oForms | typeof oFormContainers | typeof oFormFields | typeof oFormMessages) =>
  (await h.db.select({ n: count() }).from(table))[0]?.n;

useHarness(async (server) => {
  h = server;
  admin = await h.token();
  ({ engagementId, otherEngagementId, userToken } = await scopedEngagements(h, admin, { name: 'OForm', code: 'OFS', username: 'oform-user' }));
});

describe('lookups', () => {
  it('lists the field types and the field categories', async () => {
    const types = await json(await h.request('GET', '/api/o-forms/o-form-field-types', { token: admin }));
    expect(types.data.map((t: { id: string }) => t.id)).toEqual([...FIELD_TYPES]);
    expect(types.meta.total).toBe(FIELD_TYPES.length);
    const categories = await json(await h.request('GET', '/api/o-forms/o-form-field-categories', { token: admin }));
    expect(categories.data.length).toBeGreaterThan(0);
    expect(categories.data[0].type).toBe('o-form-field-categories');
    expect((await h.request('GET', '/api/o-forms/o-form-field-types?bogus=1', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/o-form-field-types')).status).toBe(401);
  });
});

describe('surveys', () => {
  it("creates version 1 with 'New Page 1', reads it with its includes, lists, updates and deletes it", async () => {
    const form = await newForm('Heart survey');
    expect(form.attributes).toMatchObject({ version: 1, containerCount: 1, isApproved: false });
    expect(form.attributes.identity).toMatch(/^[0-9a-f-]{36}$/);
    const read = await getForm(form.id);
    expect(read.pages.map((p) => [p.title, p.displayOrder])).toEqual([['New Page 1', 1]]);
    expect(read.attributes).toMatchObject({ title: 'Heart survey', engagementName: 'OForm study', sponsorName: 'OForm Sponsor' });
    expect(read.included.some((r) => r.type === 'engagements')).toBe(true);
    expect(read.included.some((r) => r.type === 'sponsors' && r.attributes.name === 'OForm Sponsor')).toBe(true);

    const list = await json(await h.request('GET', `/api/o-forms/o-forms?identity=${form.attributes.identity}&engagementId=${engagementId}`, { token: admin }));
    expect(list.meta).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(
      (await json(await h.request('GET', `/api/o-forms/o-forms?identity=${form.attributes.identity}&approvedOnly=true`, { token: admin }))).meta.total,
    ).toBe(0);

    const updated = await patch('o-forms', form.id, { title: 'Heart survey 2', isActive: false });
    expect(updated.res.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ title: 'Heart survey 2', isActive: false });

    expect((await del('o-forms', form.id)).status).toBe(204);
    expect((await h.request('GET', `/api/o-forms/o-forms/${form.id}`, { token: admin })).status).toBe(404);
    expect(await rowsWhere(h.db, oFormContainers.oFormId, Number(form.id))).toHaveLength(0);
  });

  it('rejects bad input with JSON:API errors and writes nothing', async () => {
    const before = await rowCount(oForms);
    await expectTitleAndKnownEngagementRequired(post, 'o-forms', engagementId);
    expect((await post('o-forms', 'o-forms', { title: 'X', engagementId: Number(engagementId), version: 4 })).res.status).toBe(422);
    expect((await post('o-forms', 'surveys', { title: 'X', engagementId: Number(engagementId) })).res.status).toBe(409);
    expect((await h.request('POST', '/api/o-forms/o-forms', { token: admin, body: '{"data":' })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/o-forms?sort=identity', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/o-forms?approvedOnly=maybe', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/o-forms?include=bogus', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/o-forms/abc', { token: admin })).status).toBe(404);
    expect(await rowCount(oForms)).toBe(before);
  });
});

describe('pages', () => {
  it("names further pages 'New Page N', keeps orders dense on reorder and delete, and counts them", async () => {
    const form = await newForm();
    const first = (await getForm(form.id)).pages[0]!;
    const second = await addPage(form.id);
    const third = await addPage(form.id);
    expect([second.attributes.title, third.attributes.title]).toEqual(['New Page 2', 'New Page 3']);
    expect(third.attributes.displayOrder).toBe(3);
    expect((await getForm(form.id)).attributes.containerCount).toBe(3);

    const moved = await patch('o-form-containers', third.id, { displayOrder: 1, title: 'Intro' });
    expect(moved.res.status).toBe(200);
    let pages = (await getForm(form.id)).pages;
    expect(pages.map((p) => [p.id, p.displayOrder])).toEqual([
      [third.id, 1],
      [first.id, 2],
      [second.id, 3],
    ]);
    expect(pages[0]!.title).toBe('Intro');

    expect((await del('o-form-containers', first.id)).status).toBe(204);
    pages = (await getForm(form.id)).pages;
    expect(pages.map((p) => [p.id, p.displayOrder])).toEqual([
      [third.id, 1],
      [second.id, 2],
    ]);
    expect((await getForm(form.id)).attributes.containerCount).toBe(2);
    expect((await addPage(form.id)).attributes.title).toBe('New Page 3');

    const read = await h.request('GET', `/api/o-forms/o-form-containers/${second.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect((await json(read)).data.attributes).toMatchObject({ oFormContainerTypeId: 'root_container', oFormIdentity: form.attributes.identity });
    const child = await post('o-form-containers', 'o-form-containers', { oFormId: Number(form.id), parentId: Number(second.id), title: 'Group' });
    expect(child.res.status).toBe(201);
    expect(child.body.data.attributes).toMatchObject({ oFormContainerTypeId: 'child_container', parentId: second.id });
    const otherForm = await newForm('Other');
    const badParent = await post('o-form-containers', 'o-form-containers', { oFormId: Number(otherForm.id), parentId: Number(second.id) });
    expect(badParent.res.status).toBe(422);
    expect(pointers(badParent.body)).toEqual(['/data/attributes/parentId']);
  });

  it("takes the title's translations as a question's (per language, its title), answers them, and refuses bad ones writing nothing", async () => {
    const form = await newForm();
    const page = await addPage(form.id, { title: 'Your health', translations: { es: { title: 'Su salud' } } });
    expect(page.attributes).toMatchObject({ title: 'Your health', translations: { es: { title: 'Su salud' } } });
    // Absent: none yet.
    expect((await addPage(form.id)).attributes).toMatchObject({ translations: {} });

    const updated = await patch('o-form-containers', page.id, { translations: { es: { title: 'Tu salud' }, es_MX: { title: 'Su salud (MX)' } } });
    expect(updated.res.status).toBe(200);
    expect(updated.body.data.attributes.translations).toEqual({ es: { title: 'Tu salud' }, es_MX: { title: 'Su salud (MX)' } });
    // Another attribute's write leaves them as they are.
    expect((await patch('o-form-containers', page.id, { title: 'Your health today' })).body.data.attributes.translations).toEqual({
      es: { title: 'Tu salud' },
      es_MX: { title: 'Su salud (MX)' },
    });
    const read = await json(await h.request('GET', `/api/o-forms/o-form-containers/${page.id}`, { token: admin }));
    expect(read.data.attributes.translations).toEqual({ es: { title: 'Tu salud' }, es_MX: { title: 'Su salud (MX)' } });
    expect((await getForm(form.id)).pages.find((p) => p.id === page.id)!.translations).toEqual({
      es: { title: 'Tu salud' },
      es_MX: { title: 'Su salud (MX)' },
    });

    const before = await rowCount(oFormContainers);
    const bad = [
      [{ es: 'Su salud' }, '/data/attributes/translations/es'],
      [{ es: { title: 7 } }, '/data/attributes/translations/es/title'],
      [{ es: { title: 'Su salud', helperText: 'No' } }, '/data/attributes/translations/es/helperText'],
      // Keyed by API iso codes: a list's indexes are none.
      [['Su salud'], '/data/attributes/translations/0'],
      [{ 'es-MX!': { title: 'Su salud' } }, '/data/attributes/translations/es-MX!'],
    ] as const;
    for (const [translations, pointer] of bad) {
      const refused = await patch('o-form-containers', page.id, { translations });
      expect(refused.res.status, JSON.stringify(translations)).toBe(422);
      expect([...new Set(pointers(refused.body))]).toEqual([pointer]);
      const created = await post('o-form-containers', 'o-form-containers', { oFormId: Number(form.id), translations });
      expect(created.res.status).toBe(422);
      expect([...new Set(pointers(created.body))]).toEqual([pointer]);
    }
    expect(await rowCount(oFormContainers)).toBe(before);
    expect((await getForm(form.id)).pages.find((p) => p.id === page.id)!.translations).toEqual({
      es: { title: 'Tu salud' },
      es_MX: { title: 'Su salud (MX)' },
    });
  });

  it('refuses to delete a page that options jump to, naming them', async () => {
    const form = await newForm();
    const first = (await getForm(form.id)).pages[0]!;
    const target = await addPage(form.id);
    const q = await addField(first.id, {
      oFormFieldTypeId: 'single',
      title: 'Smoker?',
      configuration: { options: [option('Yes', 'yes', { transition: { to: 'page', identity: target.attributes.identity } }), option('No', 'no')] },
    });
    expect(q.res.status).toBe(201);
    const refused = await del('o-form-containers', target.id);
    expect(refused.status).toBe(409);
    expect((await json(refused)).errors[0].detail).toBe("This page cannot be deleted: 'Yes' of 'Smoker?' jumps to it. Point that option elsewhere first.");
    expect((await getForm(form.id)).pages).toHaveLength(2);
  });
});

describe('questions', () => {
  it("starts as a 'Placeholder' placeholder; 'multiple' without options gets 'None of the Above'", async () => {
    const form = await newForm();
    const page = (await getForm(form.id)).pages[0]!;
    const placeholder = await addField(page.id);
    expect(placeholder.res.status).toBe(201);
    expect(placeholder.body.data.attributes).toMatchObject({ title: 'Placeholder', oFormFieldTypeId: 'placeholder', displayOrder: 1 });
    expect(placeholder.body.data.attributes.identity).toMatch(/^[0-9a-f-]{36}$/);
    const multiple = await addField(page.id, { oFormFieldTypeId: 'multiple', title: 'Conditions' });
    expect(multiple.body.data.attributes.configuration.options).toEqual([
      { label: 'None of the Above', value: 'none_of_the_above', translations: {}, isDisqualified: false, transition: null },
    ]);
    expect(multiple.body.data.attributes.displayOrder).toBe(2);
    // Changing a placeholder into 'multiple' gets it too.
    const changed = await patch('o-form-fields', placeholder.body.data.id, { oFormFieldTypeId: 'multiple' });
    expect(changed.res.status).toBe(200);
    expect(changed.body.data.attributes.configuration.options.map((o: { label: string }) => o.label)).toEqual(['None of the Above']);
    const tagged = await patch('o-form-fields', placeholder.body.data.id, { tagIds: [1], categoryId: 1, displayOrder: 2 });
    expect(tagged.body.data.attributes.tags).toHaveLength(1);
    expect(tagged.body.data.attributes.displayOrder).toBe(2);
    expect((await getForm(form.id)).pages[0]!.fields.map((f) => f.displayOrder)).toEqual([1, 2]);
    expect((await del('o-form-fields', multiple.body.data.id)).status).toBe(204);
    expect((await getForm(form.id)).pages[0]!.fields.map((f) => [f.id, f.displayOrder])).toEqual([[placeholder.body.data.id, 1]]);
  });

  it('validates the configuration on every write: a 422 with a pointer, nothing written', async () => {
    const form = await newForm();
    const page = (await getForm(form.id)).pages[0]!;
    const before = await rowCount(oFormFields);
    const badLabel = await addField(page.id, { oFormFieldTypeId: 'single', configuration: { options: [{ label: '', value: 'a' }] } });
    expect(badLabel.res.status).toBe(422);
    expect(pointers(badLabel.body)).toEqual(['/data/attributes/configuration/options/0/label']);
    const wrongKey = await addField(page.id, { oFormFieldTypeId: 'text', configuration: { options: [option('A', 'a')] } });
    expect(pointers(wrongKey.body)).toEqual(['/data/attributes/configuration/options']);
    const limits = await addField(page.id, { oFormFieldTypeId: 'dob', configuration: { minAge: 40, maxAge: 18 } });
    expect(pointers(limits.body)).toEqual(['/data/attributes/configuration/maxAge']);
    const badType = await addField(page.id, { oFormFieldTypeId: 'essay' });
    expect(pointers(badType.body)).toEqual(['/data/attributes/oFormFieldTypeId']);
    expect(await rowCount(oFormFields)).toBe(before);

    const ok = await addField(page.id, { oFormFieldTypeId: 'single', configuration: { options: [option('A', 'a'), option('B', 'b')] } });
    const duplicate = await patch('o-form-fields', ok.body.data.id, { configuration: { options: [option('A', 'a'), option('B', 'a')] } });
    expect(duplicate.res.status).toBe(422);
    expect(pointers(duplicate.body)).toEqual(['/data/attributes/configuration/options/1/value']);
    const toText = await patch('o-form-fields', ok.body.data.id, { oFormFieldTypeId: 'text' });
    expect(toText.res.status).toBe(422);
    const row = await rowWithId(h.db.select().from(oFormFields), oFormFields.id, Number(ok.body.data.id));
    expect(row?.type).toBe('single');
    expect((row?.configuration as { options: { value: string }[] }).options.map((o) => o.value)).toEqual(['a', 'b']);
  });

  it('lets options jump only to another page of the same version that is not all date-of-birth', async () => {
    const form = await newForm();
    const first = (await getForm(form.id)).pages[0]!;
    const dobPage = await addPage(form.id);
    const plain = await addPage(form.id);
    expect((await addField(dobPage.id, { oFormFieldTypeId: 'dob' })).res.status).toBe(201);
    const other = await newForm('Elsewhere');
    const otherPage = (await getForm(other.id)).pages[0]!;

    const jump = (identity: string) => ({ options: [option('Yes', 'yes', { transition: { to: 'page', identity } })] });
    for (const identity of [dobPage.attributes.identity, first.identity, otherPage.identity, 'nope']) {
      const refused = await addField(first.id, { oFormFieldTypeId: 'single', configuration: jump(identity) });
      expect(refused.res.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({
        detail: TRANSITION_PAGE_INVALID,
        source: { pointer: '/data/attributes/configuration/options/0/transition/identity' },
      });
    }
    const ok = await addField(first.id, { oFormFieldTypeId: 'single', configuration: jump(plain.attributes.identity) });
    expect(ok.res.status).toBe(201);
    const toEnd = await addField(first.id, { oFormFieldTypeId: 'single', configuration: { options: [option('No', 'no', { transition: { to: 'end' } })] } });
    expect(toEnd.res.status).toBe(201);
    const toSurvey = await addField(first.id, {
      oFormFieldTypeId: 'yes_no',
      configuration: { options: [option('Yes', 'yes', { transition: { to: 'survey', identity: other.attributes.identity } })] },
    });
    expect(toSurvey.res.status).toBe(201);
    const toSelf = await addField(first.id, {
      oFormFieldTypeId: 'yes_no',
      configuration: { options: [option('Yes', 'yes', { transition: { to: 'survey', identity: form.attributes.identity } })] },
    });
    expect(toSelf.body.errors[0].detail).toBe(TRANSITION_SURVEY_INVALID);
    expect((await getForm(form.id)).attributes.transitions).toHaveLength(3);

    // The jumped-to page cannot become all date-of-birth.
    const onTarget = await addField(plain.id, { oFormFieldTypeId: 'text' });
    const toDob = await patch('o-form-fields', onTarget.body.data.id, { oFormFieldTypeId: 'dob' });
    expect(toDob.res.status).toBe(422);
    expect(toDob.body.errors[0]).toMatchObject({ detail: DOB_PAGE_IS_TARGET, source: { pointer: '/data/attributes/oFormFieldTypeId' } });
    const dobOnTarget = await addField(plain.id, { oFormFieldTypeId: 'dob' });
    expect((await del('o-form-fields', onTarget.body.data.id)).status).toBe(409);
    expect((await del('o-form-fields', dobOnTarget.body.data.id)).status).toBe(204);
  });
});

describe('versions', () => {
  async function builtForm() {
    const form = await newForm('Versioned');
    const first = (await getForm(form.id)).pages[0]!;
    const second = await addPage(form.id);
    const q = await addField(first.id, {
      oFormFieldTypeId: 'single',
      title: 'Age band',
      tagIds: [1],
      configuration: {
        options: [
          option('Under 18', 'u18', { isDisqualified: true, transition: { to: 'end' } }),
          option('Adult', 'adult', { transition: { to: 'page', identity: second.attributes.identity } }),
        ],
      },
    });
    expect(q.res.status).toBe(201);
    await addField(second.id, { oFormFieldTypeId: 'email', title: 'Email' });
    expect((await patch('o-form-containers', second.id, { translations: { es: { title: 'Contacto' } } })).res.status).toBe(200);
    await h.db
      .insert(oFormMessages)
      .values({ oFormIdentity: form.attributes.identity, oFormVersionId: Number(form.id), messageType: 'not_qualified_consent', message: 'Sorry' });
    return { form, fieldId: q.body.data.id as string };
  }
  const shape = (pages: Page[]) =>
    pages.map((p) => ({
      identity: p.identity,
      title: p.title,
      translations: p.translations,
      displayOrder: p.displayOrder,
      fields: p.fields.map(({ id: _id, containerId: _c, ...rest }: any) => rest),
    }));

  it('copies the latest version into the next: same structure and identities, new ids, unapproved', async () => {
    const { form } = await builtForm();
    const copy = await post('o-form-copy', 'o-form-copy', { copy_identity: form.attributes.identity });
    expect(copy.res.status).toBe(201);
    expect(copy.body.data.attributes).toMatchObject({ identity: form.attributes.identity, version: 2, isApproved: false, containerCount: 2 });
    const v1 = await getForm(form.id);
    const v2 = await getForm(copy.body.data.id);
    expect(shape(v2.pages)).toEqual(shape(v1.pages));
    expect(v2.pages[1]!.translations).toEqual({ es: { title: 'Contacto' } });
    const ids1 = v1.pages.flatMap((p) => [p.id, ...p.fields.map((f) => f.id)]);
    const ids2 = v2.pages.flatMap((p) => [p.id, ...p.fields.map((f) => f.id)]);
    expect(ids2.some((id) => ids1.includes(id))).toBe(false);
    const messages = await h.db
      .select()
      .from(oFormMessages)
      .where(eq(oFormMessages.oFormVersionId, Number(copy.body.data.id)));
    expect(messages.map((m) => [m.messageType, m.message])).toEqual([['not_qualified_consent', 'Sorry']]);
    // The next copy is taken from version 2.
    const third = await post('o-form-copy', 'o-form-copy', { copy_identity: form.attributes.identity });
    expect(third.body.data.attributes.version).toBe(3);
    const unknown = await post('o-form-copy', 'o-form-copy', { copy_identity: 'no-such-identity' });
    expect(unknown.res.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ detail: UNKNOWN_IDENTITY, source: { pointer: '/data/attributes/copy_identity' } });
  });

  it('approves a version once; approving the next clears the previous one', async () => {
    const { form } = await builtForm();
    const approve = (id: string) => patch('o-form-versions', id, { mark_approved: true });
    const first = await approve(form.id);
    expect(first.res.status).toBe(200);
    expect(first.body.data).toMatchObject({ type: 'o-form-versions', id: form.id, attributes: { isApproved: true, version: 1 } });
    const again = await approve(form.id);
    expect(again.res.status).toBe(409);
    expect(again.body.errors[0].detail).toBe(ALREADY_APPROVED);
    expect((await patch('o-form-versions', form.id, { mark_approved: false })).res.status).toBe(422);

    const v2 = (await post('o-form-copy', 'o-form-copy', { copy_identity: form.attributes.identity })).body.data.id as string;
    expect((await approve(v2)).res.status).toBe(200);
    expect((await getForm(form.id)).attributes.isApproved).toBe(false);
    expect((await getForm(v2)).attributes.isApproved).toBe(true);
    const approved = await json(await h.request('GET', `/api/o-forms/o-forms?identity=${form.attributes.identity}&approvedOnly=true`, { token: admin }));
    expect(approved.data.map((f: { id: string }) => f.id)).toEqual([v2]);
    // Version 1 was approved once: it stays frozen and cannot be approved again.
    expect((await approve(form.id)).res.status).toBe(409);
  });

  it('makes an approved version immutable: every write is a 409 that changes nothing', async () => {
    const { form, fieldId } = await builtForm();
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);
    const before = await getForm(form.id);
    const page = before.pages[0]!;
    const field = page.fields[0]!;

    const options = structuredClone(field.configuration.options) as { label: string }[];
    options[0]!.label = 'Minor';
    const attempts = [
      await patch('o-form-fields', fieldId, { configuration: { ...field.configuration, options } }),
      await patch('o-form-fields', fieldId, { title: 'Changed' }),
      await addField(page.id),
      await patch('o-form-containers', page.id, { title: 'Changed' }),
      await patch('o-form-containers', page.id, { translations: { es: { title: 'Cambiado' } } }),
      await post('o-form-containers', 'o-form-containers', { oFormId: Number(form.id) }),
      await patch('o-forms', form.id, { title: 'Changed' }),
    ];
    for (const { res, body } of attempts) {
      expect(res.status).toBe(409);
      expect(body.errors[0].detail).toBe(APPROVED_IMMUTABLE);
    }
    for (const res of [await del('o-form-fields', fieldId), await del('o-form-containers', page.id), await del('o-forms', form.id)]) {
      expect(res.status).toBe(409);
    }
    const after = await getForm(form.id);
    expect(after.pages).toEqual(before.pages);
    expect(after.attributes.title).toBe(before.attributes.title);
    // Active is not content: toggle_active still applies to an approved version.
    const toggled = await patch('o-forms', form.id, { isActive: false });
    expect(toggled.res.status).toBe(200);
    expect(toggled.body.data.attributes.isActive).toBe(false);
  });
});

describe('sponsor scope', () => {
  it('lets a User reach only the surveys of their sponsors’ engagements', async () => {
    const mine = await newForm('Scoped mine', engagementId, userToken);
    const other = await newForm('Scoped other', otherEngagementId);
    const otherPage = (await getForm(other.id)).pages[0]!;
    const otherField = await addField(otherPage.id, { oFormFieldTypeId: 'text' });

    const list = await json(await h.request('GET', '/api/o-forms/o-forms?searchQuery=Scoped', { token: userToken }));
    expect(list.data.map((f: { attributes: { title: string } }) => f.attributes.title)).toEqual(['Scoped mine']);
    expect((await h.request('GET', `/api/o-forms/o-forms/${other.id}`, { token: userToken })).status).toBe(404);
    expect((await h.request('GET', `/api/o-forms/o-form-containers/${otherPage.id}`, { token: userToken })).status).toBe(404);
    expect((await patch('o-forms', other.id, { title: 'Hijack' }, userToken)).res.status).toBe(404);
    expect((await del('o-forms', other.id, userToken)).status).toBe(404);
    expect((await patch('o-form-containers', otherPage.id, { title: 'x' }, userToken)).res.status).toBe(404);
    expect((await del('o-form-containers', otherPage.id, userToken)).status).toBe(404);
    expect((await patch('o-form-fields', otherField.body.data.id, { title: 'x' }, userToken)).res.status).toBe(404);
    expect((await del('o-form-fields', otherField.body.data.id, userToken)).status).toBe(404);
    expect((await patch('o-form-versions', other.id, { mark_approved: true }, userToken)).res.status).toBe(404);
    expect((await post('o-form-containers', 'o-form-containers', { oFormId: Number(other.id) }, userToken)).res.status).toBe(422);
    expect((await post('o-form-fields', 'o-form-fields', { containerId: Number(otherPage.id) }, userToken)).res.status).toBe(422);
    expect((await post('o-form-copy', 'o-form-copy', { copy_identity: other.attributes.identity }, userToken)).res.status).toBe(422);
    expect((await post('o-forms', 'o-forms', { title: 'No', engagementId: Number(otherEngagementId) }, userToken)).res.status).toBe(422);
    const row = await rowWithId(h.db.select().from(oForms), oForms.id, Number(other.id));
    expect(row).toMatchObject({ title: 'Scoped other', isApproved: false });
    // Their own survey they may author.
    expect((await post('o-form-containers', 'o-form-containers', { oFormId: Number(mine.id) }, userToken)).res.status).toBe(201);
  });
});
