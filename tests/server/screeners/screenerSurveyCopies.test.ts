import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, inArray } from 'drizzle-orm';
import { oFormContainers, oFormFields, oFormLanguages, oFormMessages, oForms, screenerSurveys } from '../../../server/db/schema';
import { screenerCopyIdentity } from '../../../server/surveys/copy';
import { createHarness, doc, json, type Harness } from '../harness';

let h: Harness;
let admin: string;
let sponsorId: number;
let engagementId: number;
let spanishId: string;

async function post(path: string, type: string, attributes: Record<string, unknown>) {
  const res = await h.request('POST', path, { token: admin, body: doc(type, attributes) });
  const body = await json(res);
  return { res, body };
}
const created = async (path: string, type: string, attributes: Record<string, unknown>) => {
  const { res, body } = await post(path, type, attributes);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data as { id: string; attributes: Record<string, any> };
};

interface Survey {
  id: string;
  identity: string;
  pages: { id: string; identity: string }[];
}
async function survey(title: string): Promise<Survey> {
  const form = await created('/api/o-forms/o-forms', 'o-forms', { title, engagementId });
  const read = await json(await h.request('GET', `/api/o-forms/o-forms/${form.id}?include=oFormContainers`, { token: admin }));
  const first = read.included.find((r: any) => r.type === 'o-form-containers');
  return { id: form.id, identity: form.attributes.identity, pages: [{ id: first.id, identity: first.attributes.identity }] };
}
async function addPage(s: Survey, title: string) {
  const page = await created('/api/o-forms/o-form-containers', 'o-form-containers', { oFormId: Number(s.id), title });
  s.pages.push({ id: page.id, identity: page.attributes.identity });
}
const addField = (containerId: string, attributes: Record<string, unknown>) =>
  created('/api/o-forms/o-form-fields', 'o-form-fields', { containerId: Number(containerId), ...attributes });

/** A version's pages with their questions, as stored. */
async function structureOf(formId: number) {
  const pages = await h.db.select().from(oFormContainers).where(eq(oFormContainers.oFormId, formId)).orderBy(oFormContainers.displayOrder);
  const fields = pages.length
    ? await h.db
        .select()
        .from(oFormFields)
        .where(
          inArray(
            oFormFields.containerId,
            pages.map((p) => p.id),
          ),
        )
        .orderBy(oFormFields.displayOrder)
    : [];
  return pages.map((p) => ({ ...p, fields: fields.filter((f) => f.containerId === p.id) }));
}
const versionsOf = (identity: string) => h.db.select().from(oForms).where(eq(oForms.identity, identity)).orderBy(oForms.version);
const linksOf = async (screenerId: number | string) =>
  (
    await h.db
      .select()
      .from(screenerSurveys)
      .where(eq(screenerSurveys.screenerId, Number(screenerId)))
      .orderBy(screenerSurveys.displayOrder)
  ).map((l) => l.oFormIdentity);
const flowOf = async (screenerId: string) => (await json(await h.request('GET', `/api/screener-surveys/flow/${screenerId}`, { token: admin }))).data.attributes;
const updateSurveys = async (screenerId: string) => {
  const res = await h.request('PATCH', `/api/screeners/update-surveys/${screenerId}`, { token: admin });
  return { res, body: await json(res) };
};

let a: Survey;
let b: Survey;
let source: { id: string };

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  sponsorId = Number((await created('/api/sponsors', 'sponsors', { name: 'Copy Pharma', identification: 'CPY' })).id);
  engagementId = Number((await created('/api/engagements', 'engagements', { name: 'Copy study', identification: 'CPY1', sponsorId })).id);
  spanishId = String(
    (await json(await h.request('GET', '/api/languages?limit=100', { token: admin }))).data.find((l: any) => l.attributes.isoCode === 'es').id,
  );

  b = await survey('Follow-up survey');
  await addField(b.pages[0]!.id, { oFormFieldTypeId: 'text', title: 'Anything else?' });
  a = await survey('Intake survey');
  await addPage(a, 'Details');
  await addField(a.pages[0]!.id, {
    oFormFieldTypeId: 'single',
    title: 'How did you hear of us?',
    configuration: {
      options: [
        { label: 'Go on', value: 'on', transition: { to: 'page', identity: a.pages[1]!.identity } },
        { label: 'Elsewhere', value: 'else', transition: { to: 'survey', identity: b.identity } },
        { label: 'Stop', value: 'stop', isDisqualified: true, transition: { to: 'end' } },
      ],
    },
  });
  await addField(a.pages[1]!.id, { oFormFieldTypeId: 'text', title: 'Your details' });
  await created('/api/o-forms/o-form-messages', 'o-form-messages', { oFormVersionId: Number(a.id), messageType: 'completed_contact_form', message: 'Thanks!' });
  // Spanish on the follow-up only: the intake is approved below without translations.
  const langs = await h.request('PATCH', `/api/o-forms/o-forms/${b.id}`, {
    token: admin,
    body: doc('o-forms', {}, b.id, { languages: { data: [{ type: 'languages', id: spanishId }] } }),
  });
  expect(langs.status).toBe(200);

  source = await created('/api/screeners', 'screeners', { title: 'Copy source', sponsorId });
  await created('/api/screener-surveys', 'screener-surveys', { screenerId: Number(source.id), oFormIdentity: a.identity, displayOrder: 0 });
  await created('/api/screener-surveys', 'screener-surveys', { screenerId: Number(source.id), oFormIdentity: b.identity, displayOrder: 1 });
});
afterAll(async () => {
  await h.close();
});

describe('screener flow', () => {
  it('draws the surveys as nodes titled by their survey, and the option transitions between them as labelled edges', async () => {
    const flow = await flowOf(source.id);
    expect(flow.nodes.map((n: any) => [n.oFormIdentity, n.title])).toEqual([
      [a.identity, 'Intake survey'],
      [b.identity, 'Follow-up survey'],
    ]);
    const [aNode, bNode] = flow.nodes;
    expect(flow.edges).toEqual([{ id: `${aNode.id}-${bNode.id}`, source: aNode.id, target: bNode.id, label: 'Elsewhere' }]);
  });
});

describe('cloning a screener with versioned surveys', () => {
  it('copies each survey into a survey of the clone’s own, re-pointing its transitions; update-surveys refreshes them; deleting the clone removes them', async () => {
    const rowsBefore = (await h.db.select({ n: count() }).from(oForms))[0]!.n;
    const clone = await created(`/api/screeners/${source.id}/clone`, 'screeners', { title: 'Copy clone' });
    const cid = Number(clone.id);
    const aCopy = screenerCopyIdentity(cid, a.identity);
    const bCopy = screenerCopyIdentity(cid, b.identity);
    expect(await linksOf(cid)).toEqual([aCopy, bCopy]);
    expect(aCopy).not.toBe(a.identity);

    const [copyV1] = await versionsOf(aCopy);
    expect(copyV1).toMatchObject({ version: 1, isApproved: false, approvedAt: null, title: 'Intake survey', engagementId, containerCount: 2 });
    const original = await structureOf(Number(a.id));
    const copied = await structureOf(copyV1!.id);
    expect(copied.map((p) => p.title)).toEqual(original.map((p) => p.title));
    expect(copied.map((p) => p.fields.map((f) => f.title))).toEqual(original.map((p) => p.fields.map((f) => f.title)));
    // New identities everywhere; transitions lead to the copy's own page and to the copy of the other survey.
    expect(copied.map((p) => p.identity).some((id) => original.some((p) => p.identity === id))).toBe(false);
    const options = (copied[0]!.fields[0]!.configuration as any).options;
    expect(options.map((o: any) => o.transition)).toEqual([{ to: 'page', identity: copied[1]!.identity }, { to: 'survey', identity: bCopy }, { to: 'end' }]);
    expect(options[2].isDisqualified).toBe(true);
    const messages = await h.db.select().from(oFormMessages).where(eq(oFormMessages.oFormVersionId, copyV1!.id));
    expect(messages.map((m) => [m.oFormIdentity, m.messageType, m.message])).toEqual([[aCopy, 'completed_contact_form', 'Thanks!']]);
    const [bCopyV1] = await versionsOf(bCopy);
    expect((await h.db.select().from(oFormLanguages).where(eq(oFormLanguages.oFormId, bCopyV1!.id))).map((l) => String(l.languageId))).toContain(spanishId);
    // The source is untouched, and the clone's flow runs between the copies.
    expect((await versionsOf(a.identity)).map((v) => v.version)).toEqual([1]);
    const flow = await flowOf(clone.id);
    expect(flow.nodes.map((n: any) => n.oFormIdentity)).toEqual([aCopy, bCopy]);
    expect(flow.edges.map((e: any) => e.label)).toEqual(['Elsewhere']);

    // The source approves version 1 and drafts version 2: the clone refreshes from the approved one.
    expect(
      (await h.request('PATCH', `/api/o-forms/o-form-versions/${a.id}`, { token: admin, body: doc('o-form-versions', { mark_approved: true }, a.id) })).status,
    ).toBe(200);
    const draft = await created('/api/o-forms/o-form-copy', 'o-form-copy', { copy_identity: a.identity });
    const draftField = (await structureOf(Number(draft.id)))[0]!.fields[0]!;
    await h.request('PATCH', `/api/o-forms/o-form-fields/${draftField.id}`, {
      token: admin,
      body: doc('o-form-fields', { title: 'Draft wording' }, String(draftField.id)),
    });

    const refreshed = await updateSurveys(clone.id);
    expect(refreshed.res.status).toBe(200);
    expect(refreshed.body.data.map((r: any) => [r.attributes.sourceIdentity, r.attributes.identity, r.attributes.version])).toEqual([
      [a.identity, aCopy, 2],
      [b.identity, bCopy, 2],
    ]);
    expect(refreshed.body.data[0].attributes.sourceVersionId).toBe(a.id);
    const copyV2 = (await versionsOf(aCopy))[1]!;
    const refreshedStructure = await structureOf(copyV2.id);
    expect(refreshedStructure[0]!.fields[0]!.title).toBe('How did you hear of us?');
    // The copy's pages and questions keep their identities across its versions.
    expect(refreshedStructure.map((p) => p.identity)).toEqual(copied.map((p) => p.identity));
    expect(refreshedStructure[0]!.fields[0]!.identity).toBe(copied[0]!.fields[0]!.identity);

    // A survey removed from the clone stays removed.
    const bLink = (await h.db.select().from(screenerSurveys).where(eq(screenerSurveys.oFormIdentity, bCopy)))[0]!;
    expect((await h.request('DELETE', `/api/screener-surveys/${bLink.id}`, { token: admin })).status).toBe(204);
    const again = await updateSurveys(clone.id);
    expect(again.body.data.map((r: any) => r.attributes.identity)).toEqual([aCopy]);

    // Deleting the clone removes every version of the surveys copied for it, and nothing else.
    expect((await h.request('DELETE', `/api/screeners/clone/${cid}`, { token: admin })).status).toBe(204);
    expect(await versionsOf(aCopy)).toEqual([]);
    expect(await versionsOf(bCopy)).toEqual([]);
    expect((await h.db.select({ n: count() }).from(oForms))[0]!.n).toBe(rowsBefore + 1);
    expect((await versionsOf(a.identity)).map((v) => v.version)).toEqual([1, 2]);
    expect(await linksOf(cid)).toEqual([]);
  });
});

describe('cloneSurvey', () => {
  it('links a deep copy of a survey as a survey of the screener’s own, once', async () => {
    const screener = await created('/api/screeners', 'screeners', { title: 'Copy target', sponsorId });
    await created('/api/screener-surveys', 'screener-surveys', { screenerId: Number(screener.id), oFormIdentity: b.identity });
    const link = await created('/api/screener-surveys', 'screener-surveys', {
      screenerId: Number(screener.id),
      oFormIdentity: a.identity,
      cloneSurvey: true,
      displayOrder: 3,
    });
    const copyIdentity = screenerCopyIdentity(Number(screener.id), a.identity);
    expect(link.attributes).toMatchObject({ oFormIdentity: copyIdentity, displayOrder: 3, isActive: true });
    const versions = await versionsOf(copyIdentity);
    // The latest version of the source (the draft 2), as version 1 of the copy.
    expect(versions.map((v) => [v.version, v.isApproved])).toEqual([[1, false]]);
    expect((await structureOf(versions[0]!.id))[0]!.fields[0]!.title).toBe('Draft wording');
    // b itself is linked, not a copy of it: the transition keeps pointing at b.
    const options = ((await structureOf(versions[0]!.id))[0]!.fields[0]!.configuration as any).options;
    expect(options[1].transition).toEqual({ to: 'survey', identity: b.identity });

    const twice = await post('/api/screener-surveys', 'screener-surveys', { screenerId: Number(screener.id), oFormIdentity: a.identity, cloneSurvey: true });
    expect(twice.res.status).toBe(409);
    expect(await versionsOf(copyIdentity)).toHaveLength(1);
  });
});
