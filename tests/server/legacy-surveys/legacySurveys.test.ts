import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { engagementOptions, surveyOptions, surveyPages, surveyQuestions, surveys } from '../../../server/db/schema';
import { ENGAGEMENT_OPTION_EXISTS, ENGAGEMENT_REPEATED, OPTION_ENGAGEMENT_INVALID } from '../../../server/legacy-surveys/messages';
import { UNKNOWN_TAG } from '../../../server/surveys/tagging';
import { DOB_PAGE_IS_TARGET } from '@core/survey/authoring';
import { TRANSITION_TARGET_INVALID, TRANSITION_TARGET_REQUIRED } from '@core/model/legacySurvey';
import { doc, json, useHarness, type Harness } from '../harness';
import { pointers, resourceCalls } from '../resourceCalls';
import { rowsWhere } from '../rowsWhere';
import { expectTitleAndKnownEngagementRequired } from '../surveyWrites';
import { rowWithId } from '../../../server/db/rows';
import { postEngagement, scopedEngagements } from '../staffRecords';

let h: Harness;
let admin: string;
let engagementId: string;
let sameSponsorEngagementId: string;
let otherEngagementId: string;
let userToken: string;

const { post, patch, del } = resourceCalls(
  () => h,
  '/api',
  () => admin,
);

async function getSurvey(id: string, token = admin) {
  const res = await h.request('GET', `/api/surveys/${id}`, { token });
  expect(res.status).toBe(200);
  return (await json(res)).data.attributes as {
    title: string;
    pageCounter: number;
    pages: {
      id: string;
      title: string;
      displayOrder: number;
      questions: {
        id: string;
        questionType: string;
        title: string;
        displayOrder: number;
        tags: { name: string }[];
        options: { id: string; label: string; displayOrder: number; transitionTo: string | null; transitionTarget: string | null; isDisqualified: boolean }[];
      }[];
    }[];
  };
}

async function newSurvey(title = 'Legacy survey') {
  const { res, body } = await post('surveys', 'surveys', { title, engagementId: Number(engagementId) });
  expect(res.status).toBe(201);
  return body.data as { id: string; attributes: { pages: { id: string; title: string }[]; pageCounter: number } };
}
async function addQuestion(pageId: string, attributes: Record<string, unknown> = {}) {
  const { res, body } = await post('questions', 'questions', { pageId: Number(pageId), ...attributes });
  expect(res.status).toBe(201);
  return body.data as { id: string; attributes: { questionType: string; title: string; options: { id: string; label: string; isDisqualified: boolean }[] } };
}
async function addOption(questionId: string, attributes: Record<string, unknown> = {}) {
  const { res, body } = await post('options', 'options', { questionId: Number(questionId), ...attributes });
  return { res, body };
}
const rowCount = async (table: typeof surveyOptions | typeof surveyPages | typeof surveyQuestions | typeof engagementOptions | typeof surveys) =>
  (await h.db.select({ n: count() }).from(table))[0]?.n;

useHarness(async (server) => {
  h = server;
  admin = await h.token();
  const scope = await scopedEngagements(h, admin, { name: 'Legacy', code: 'LGS', username: 'scoped' });
  ({ engagementId, otherEngagementId, userToken } = scope);
  sameSponsorEngagementId = await postEngagement(h, admin, scope.sponsorId, 'Second study', 'SS');
});

describe('surveys', () => {
  it('creates a survey with page New Page 1 and counter 1, reads, lists, updates and deletes it', async () => {
    const survey = await newSurvey('Heart screening');
    expect(survey.attributes.pageCounter).toBe(1);
    expect(survey.attributes.pages.map((p) => p.title)).toEqual(['New Page 1']);
    const read = await getSurvey(survey.id);
    expect(read).toMatchObject({ title: 'Heart screening', engagementName: 'Legacy study', sponsorName: 'Legacy Sponsor', isActive: true });
    expect((read as unknown as { globalId: string }).globalId).toMatch(/^[0-9a-f-]{36}$/);

    const list = await json(await h.request('GET', `/api/surveys?engagementId=${engagementId}&searchQuery=heart&sort=-created`, { token: admin }));
    expect(list.meta).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(list.data[0].attributes.title).toBe('Heart screening');
    expect(list.data[0].attributes.pages).toBeUndefined();
    const withPages = await json(await h.request('GET', `/api/surveys?searchQuery=heart&include=pages.questions.options`, { token: admin }));
    expect(withPages.data[0].attributes.pages).toHaveLength(1);

    const { res, body } = await patch('surveys', survey.id, { title: 'Heart screening v2', isActive: false });
    expect(res.status).toBe(200);
    expect(body.data.attributes).toMatchObject({ title: 'Heart screening v2', isActive: false });

    expect((await del('surveys', survey.id)).status).toBe(204);
    expect((await h.request('GET', `/api/surveys/${survey.id}`, { token: admin })).status).toBe(404);
    expect(await rowsWhere(h.db, surveyPages.surveyId, Number(survey.id))).toHaveLength(0);
  });

  it('rejects bad input with JSON:API errors and writes nothing', async () => {
    const before = await rowCount(surveys);
    await expectTitleAndKnownEngagementRequired(post, 'surveys', engagementId);
    const extra = await post('surveys', 'surveys', { title: 'X', engagementId: Number(engagementId), pageCounter: 7 });
    expect(extra.res.status).toBe(422);
    const huge = await post('surveys', 'surveys', { title: 'X', engagementId: 99_999_999_999 });
    expect(huge.res.status).toBe(422);
    expect(pointers(huge.body)).toEqual(['/data/attributes/engagementId']);
    const hugeOption = await post('options', 'options', { questionId: 1, transitionTo: 'page', transitionTarget: 2 ** 40 });
    expect(hugeOption.res.status).toBe(422);
    const wrongType = await post('surveys', 'pages', { title: 'X', engagementId: Number(engagementId) });
    expect(wrongType.res.status).toBe(409);
    const malformed = await h.request('POST', '/api/surveys', { token: admin, body: '{"data":' });
    expect(malformed.status).toBe(400);
    expect((await h.request('GET', '/api/surveys?sort=globalId', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/surveys?engagementId=abc', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/surveys?bogus=1', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/surveys/abc', { token: admin })).status).toBe(404);
    expect(await rowCount(surveys)).toBe(before);
    expect((await h.request('GET', '/api/surveys')).status).toBe(401);
  });

  it('lets a User reach only the surveys of their sponsors’ engagements', async () => {
    const mine = await newSurvey('Scoped mine');
    const other = await post('surveys', 'surveys', { title: 'Scoped other', engagementId: Number(otherEngagementId) });
    const otherId = other.body.data.id as string;
    const list = await json(await h.request('GET', '/api/surveys?searchQuery=Scoped', { token: userToken }));
    expect(list.data.map((s: { attributes: { title: string } }) => s.attributes.title)).toEqual(['Scoped mine']);
    expect((await h.request('GET', `/api/surveys/${otherId}`, { token: userToken })).status).toBe(404);
    expect((await patch('surveys', otherId, { title: 'Hijack' }, userToken)).res.status).toBe(404);
    expect((await del('surveys', otherId, userToken)).status).toBe(404);
    const forOther = await post('surveys', 'surveys', { title: 'No', engagementId: Number(otherEngagementId) }, userToken);
    expect(forOther.res.status).toBe(422);
    const otherPage = (await getSurvey(otherId)).pages[0]!.id;
    expect((await post('pages', 'pages', { surveyId: Number(otherId) }, userToken)).res.status).toBe(422);
    expect((await post('questions', 'questions', { pageId: Number(otherPage) }, userToken)).res.status).toBe(422);
    expect((await patch('pages', otherPage, { title: 'x' }, userToken)).res.status).toBe(404);
    // Their own survey they may author.
    const page = await post('pages', 'pages', { surveyId: Number(mine.id) }, userToken);
    expect(page.res.status).toBe(201);
  });
});

describe('pages', () => {
  it("names new pages 'New Page N' from the counter, which deleting lowers", async () => {
    const survey = await newSurvey();
    const second = await post('pages', 'pages', { surveyId: Number(survey.id) });
    expect(second.res.status).toBe(201);
    expect(second.body.data.attributes).toMatchObject({ title: 'New Page 2', displayOrder: 2, pageCounter: 2 });
    const third = await post('pages', 'pages', { surveyId: Number(survey.id) });
    expect(third.body.data.attributes).toMatchObject({ title: 'New Page 3', displayOrder: 3, pageCounter: 3 });
    expect((await getSurvey(survey.id)).pageCounter).toBe(3);

    expect((await del('pages', second.body.data.id)).status).toBe(204);
    const after = await getSurvey(survey.id);
    expect(after.pageCounter).toBe(2);
    expect(after.pages.map((p) => [p.title, p.displayOrder])).toEqual([
      ['New Page 1', 1],
      ['New Page 3', 2],
    ]);
    // Soft: the row is still there, flagged.
    const row = await rowWithId(h.db.select().from(surveyPages), surveyPages.id, Number(second.body.data.id));
    expect(row?.isDeleted).toBe(true);
    expect((await patch('pages', second.body.data.id, { title: 'back' })).res.status).toBe(404);
    expect((await del('pages', second.body.data.id)).status).toBe(404);

    const fourth = await post('pages', 'pages', { surveyId: Number(survey.id) });
    expect(fourth.body.data.attributes).toMatchObject({ title: 'New Page 3', displayOrder: 3, pageCounter: 3 });
  });

  it('renames and reorders pages, keeping orders dense', async () => {
    const survey = await newSurvey();
    const ids = [survey.attributes.pages[0]!.id];
    for (let i = 0; i < 3; i++) ids.push((await post('pages', 'pages', { surveyId: Number(survey.id) })).body.data.id);
    const renamed = await patch('pages', ids[0]!, { title: 'About you' });
    expect(renamed.body.data.attributes.title).toBe('About you');
    const moved = await patch('pages', ids[3]!, { displayOrder: 1 });
    expect(moved.res.status).toBe(200);
    expect(moved.body.data.attributes.displayOrder).toBe(1);
    let pages = (await getSurvey(survey.id)).pages;
    expect(pages.map((p) => p.id)).toEqual([ids[3], ids[0], ids[1], ids[2]]);
    expect(pages.map((p) => p.displayOrder)).toEqual([1, 2, 3, 4]);
    // Past the end: moved last.
    await patch('pages', ids[3]!, { displayOrder: 99 });
    await del('pages', ids[1]!);
    pages = (await getSurvey(survey.id)).pages;
    expect(pages.map((p) => p.id)).toEqual([ids[0], ids[2], ids[3]]);
    expect(pages.map((p) => p.displayOrder)).toEqual([1, 2, 3]);

    const bad = await patch('pages', ids[0]!, { title: '  ', displayOrder: 0 });
    expect(bad.res.status).toBe(422);
    expect(pointers(bad.body).sort()).toEqual(['/data/attributes/displayOrder', '/data/attributes/title']);
    expect((await post('pages', 'pages', { surveyId: 999999 })).res.status).toBe(422);
  });

  it('refuses to delete a page an option jumps to (409) and deletes nothing', async () => {
    const survey = await newSurvey();
    const first = survey.attributes.pages[0]!.id;
    const second = (await post('pages', 'pages', { surveyId: Number(survey.id) })).body.data.id as string;
    const q = await addQuestion(first, { questionType: 'single', title: 'Smoker?' });
    const jump = await addOption(q.id, { label: 'Yes', transitionTo: 'page', transitionTarget: Number(second) });
    expect(jump.res.status).toBe(201);
    const res = await del('pages', second);
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].detail).toContain("'Yes' of 'Smoker?'");
    expect((await getSurvey(survey.id)).pages).toHaveLength(2);
    expect((await getSurvey(survey.id)).pageCounter).toBe(2);
  });
});

describe('questions', () => {
  it("starts new questions as placeholder 'Placeholder', soft-deletes and densifies them", async () => {
    const survey = await newSurvey();
    const page = survey.attributes.pages[0]!.id;
    const a = await addQuestion(page);
    expect(a.attributes).toMatchObject({ questionType: 'placeholder', title: 'Placeholder', options: [], displayOrder: 1 });
    const b = await addQuestion(page, { questionType: 'text', title: 'Your name', helperText: 'As on your ID' });
    const c = await addQuestion(page);
    expect((await patch('questions', c.id, { displayOrder: 1 })).res.status).toBe(200);
    let questions = (await getSurvey(survey.id)).pages[0]!.questions;
    expect(questions.map((q) => q.id)).toEqual([c.id, a.id, b.id]);
    expect((await del('questions', a.id)).status).toBe(204);
    questions = (await getSurvey(survey.id)).pages[0]!.questions;
    expect(questions.map((q) => [q.id, q.displayOrder])).toEqual([
      [c.id, 1],
      [b.id, 2],
    ]);
    const row = await rowWithId(h.db.select().from(surveyQuestions), surveyQuestions.id, Number(a.id));
    expect(row?.deleted).toBe(true);
    expect((await patch('questions', a.id, { title: 'x' })).res.status).toBe(404);
  });

  it("adds 'None of the Above' to a multiple question without options, on create and on a change of type", async () => {
    const survey = await newSurvey();
    const page = survey.attributes.pages[0]!.id;
    const multiple = await addQuestion(page, { questionType: 'multiple', title: 'Conditions' });
    expect(multiple.attributes.options).toMatchObject([{ label: 'None of the Above', isDisqualified: false, displayOrder: 1 }]);

    const changed = await addQuestion(page);
    const res = await patch('questions', changed.id, { questionType: 'multiple' });
    expect(res.body.data.attributes.options.map((o: { label: string }) => o.label)).toEqual(['None of the Above']);
    // Again: it has an option now, so nothing more is added.
    await patch('questions', changed.id, { questionType: 'single' });
    const again = await patch('questions', changed.id, { questionType: 'multiple' });
    expect(again.body.data.attributes.options).toHaveLength(1);
    // A single question gets no automatic option.
    expect((await addQuestion(page, { questionType: 'single' })).attributes.options).toEqual([]);
  });

  it("keeps 'None of the Above' last as options are added, unless staff moved it", async () => {
    const survey = await newSurvey();
    const q = await addQuestion(survey.attributes.pages[0]!.id, { questionType: 'multiple', title: 'Conditions' });
    const labels = async () => (await getSurvey(survey.id)).pages[0]!.questions[0]!.options.map((o) => [o.label, o.displayOrder]);
    await addOption(q.id, { label: 'Asthma', value: 'asthma' });
    const added = await addOption(q.id);
    expect(added.body.data.attributes).toMatchObject({ label: 'Option 3', displayOrder: 2 });
    expect(await labels()).toEqual([
      ['Asthma', 1],
      ['Option 3', 2],
      ['None of the Above', 3],
    ]);
    // Moved to the top by staff, it stays where they put it.
    const none = (await getSurvey(survey.id)).pages[0]!.questions[0]!.options.find((o) => o.label === 'None of the Above')!;
    await patch('options', String(none.id), { displayOrder: 1 });
    await addOption(q.id, { label: 'Diabetes', value: 'diabetes' });
    expect(await labels()).toEqual([
      ['None of the Above', 1],
      ['Asthma', 2],
      ['Option 3', 3],
      ['Diabetes', 4],
    ]);
  });

  it('sets category, tags and translations, and rejects unknown ones with pointers', async () => {
    const survey = await newSurvey();
    const page = survey.attributes.pages[0]!.id;
    const categories = await json(await h.request('GET', '/api/question-categories', { token: admin }));
    const tagList = await json(await h.request('GET', '/api/tags?limit=1000&sort=name', { token: admin }));
    const categoryId = Number(categories.data[0].id);
    const tagIds = tagList.data.slice(0, 2).map((t: { id: string }) => Number(t.id));
    await post('languages', 'languages', { name: 'Spanish', description: 'Spanish', isoCode: 'es', isActive: true });
    const q = await addQuestion(page, {
      questionType: 'text',
      questionCategoryId: categoryId,
      tagIds,
      translations: { es: { title: 'Nombre', helperText: '' } },
    });
    expect(q.attributes).toMatchObject({ questionCategoryId: String(categoryId), translations: { es: { title: 'Nombre' } } });
    expect((q.attributes as unknown as { tags: unknown[] }).tags).toHaveLength(2);
    const cleared = await patch('questions', q.id, { tagIds: [], questionCategoryId: null });
    expect(cleared.body.data.attributes).toMatchObject({ tags: [], questionCategoryId: null });

    const before = await rowCount(surveyQuestions);
    const bad = await post('questions', 'questions', { pageId: Number(page), questionType: 'essay', tagIds: [999999] });
    expect(bad.res.status).toBe(422);
    expect(pointers(bad.body)).toContain('/data/attributes/questionType');
    const badTag = await post('questions', 'questions', { pageId: Number(page), tagIds: [tagIds[0], 999999] });
    expect(badTag.body.errors[0]).toMatchObject({ detail: UNKNOWN_TAG, source: { pointer: '/data/attributes/tagIds/1' } });
    const badCategory = await post('questions', 'questions', { pageId: Number(page), questionCategoryId: 999999 });
    expect(pointers(badCategory.body)).toEqual(['/data/attributes/questionCategoryId']);
    const badLanguage = await post('questions', 'questions', { pageId: Number(page), translations: { fr: { title: 'Nom' } } });
    expect(pointers(badLanguage.body)).toEqual(['/data/attributes/translations/fr']);
    expect(await rowCount(surveyQuestions)).toBe(before);
  });
});

describe('options', () => {
  it('starts options not disqualifying, reorders, soft-deletes and densifies them', async () => {
    const survey = await newSurvey();
    const q = await addQuestion(survey.attributes.pages[0]!.id, { questionType: 'single' });
    const a = await addOption(q.id);
    expect(a.res.status).toBe(201);
    expect(a.body.data.attributes).toMatchObject({ label: 'Option 1', value: '1', isDisqualified: false, transitionTo: null, transitionTarget: null });
    const b = await addOption(q.id, { label: 'No', value: 'no', isDisqualified: true, translations: {} });
    expect(b.body.data.attributes.isDisqualified).toBe(true);
    const c = await addOption(q.id, { label: 'Maybe', value: 'maybe' });
    await patch('options', c.body.data.id, { displayOrder: 1 });
    await del('options', a.body.data.id);
    const options = (await getSurvey(survey.id)).pages[0]!.questions[0]!.options;
    expect(options.map((o) => [o.label, o.displayOrder])).toEqual([
      ['Maybe', 1],
      ['No', 2],
    ]);
    const row = await rowWithId(h.db.select().from(surveyOptions), surveyOptions.id, Number(a.body.data.id));
    expect(row?.deleted).toBe(true);
  });

  it("allows 'end' or a page of the same survey as the transition, never an all-dob page", async () => {
    const survey = await newSurvey();
    const first = survey.attributes.pages[0]!.id;
    const second = (await post('pages', 'pages', { surveyId: Number(survey.id) })).body.data.id as string;
    const dobPage = (await post('pages', 'pages', { surveyId: Number(survey.id) })).body.data.id as string;
    await addQuestion(dobPage, { questionType: 'dob', title: 'Date of birth' });
    const other = await newSurvey('Another survey');
    const q = await addQuestion(first, { questionType: 'single' });

    const end = await addOption(q.id, { label: 'Stop', transitionTo: 'end', transitionTarget: Number(second) });
    expect(end.res.status).toBe(201);
    expect(end.body.data.attributes).toMatchObject({ transitionTo: 'end', transitionTarget: null });
    const toPage = await addOption(q.id, { label: 'Go', transitionTo: 'page', transitionTarget: Number(second) });
    expect(toPage.body.data.attributes).toMatchObject({ transitionTo: 'page', transitionTarget: second });

    const before = await rowCount(surveyOptions);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ transitionTo: 'page', transitionTarget: Number(dobPage) }, '/data/attributes/transitionTarget', TRANSITION_TARGET_INVALID],
      [{ transitionTo: 'page', transitionTarget: Number(other.attributes.pages[0]!.id) }, '/data/attributes/transitionTarget', TRANSITION_TARGET_INVALID],
      [{ transitionTo: 'page', transitionTarget: Number(first) }, '/data/attributes/transitionTarget', TRANSITION_TARGET_INVALID],
      [{ transitionTo: 'page', transitionTarget: 999999 }, '/data/attributes/transitionTarget', TRANSITION_TARGET_INVALID],
      [{ transitionTo: 'page' }, '/data/attributes/transitionTarget', TRANSITION_TARGET_REQUIRED],
      [{ transitionTo: 'survey' }, '/data/attributes/transitionTo', ''],
    ];
    for (const [attributes, pointer, detail] of cases) {
      const { res, body } = await addOption(q.id, attributes);
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(body.errors[0].source.pointer).toBe(pointer);
      if (detail) expect(body.errors[0].detail).toBe(detail);
    }
    // The same on a PATCH: a target alone means a jump there.
    const moved = await patch('options', end.body.data.id, { transitionTarget: Number(dobPage) });
    expect(moved.res.status).toBe(422);
    const ok = await patch('options', end.body.data.id, { transitionTarget: Number(second) });
    expect(ok.body.data.attributes).toMatchObject({ transitionTo: 'page', transitionTarget: second });
    const back = await patch('options', end.body.data.id, { transitionTo: null });
    expect(back.body.data.attributes).toMatchObject({ transitionTo: null, transitionTarget: null });
    expect(await rowCount(surveyOptions)).toBe(before);

    // A page jumped to cannot become all date-of-birth.
    const onSecond = await addQuestion(second, { questionType: 'text' });
    const toDob = await patch('questions', onSecond.id, { questionType: 'dob' });
    expect(toDob.res.status).toBe(422);
    expect(toDob.body.errors[0]).toMatchObject({ detail: DOB_PAGE_IS_TARGET, source: { pointer: '/data/attributes/questionType' } });
    const row = await rowWithId(h.db.select().from(surveyQuestions), surveyQuestions.id, Number(onSecond.id));
    expect(row?.questionType).toBe('text');
    // Nor be left all date-of-birth by deleting its other question.
    await addQuestion(second, { questionType: 'dob' });
    const leaveDob = await del('questions', onSecond.id);
    expect(leaveDob.status).toBe(409);
    expect((await json(leaveDob)).errors[0].detail).toBe(DOB_PAGE_IS_TARGET);
    expect((await getSurvey(survey.id)).pages[1]!.questions).toHaveLength(2);
  });
});

describe('engagement options', () => {
  it('creates, lists, updates and replaces an option’s per-engagement settings', async () => {
    const survey = await newSurvey();
    const q = await addQuestion(survey.attributes.pages[0]!.id, { questionType: 'multiple' });
    const optionId = q.attributes.options[0]!.id;

    const created = await post('engagements-options/', 'engagements-options', {
      engagementId: Number(engagementId),
      optionId: Number(optionId),
      isDisqualified: true,
      weight: 5,
    });
    expect(created.res.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ engagementId, engagementName: 'Legacy study', optionId, isDisqualified: true, weight: 5 });
    const duplicate = await post('engagements-options', 'engagements-options', { engagementId: Number(engagementId), optionId: Number(optionId) });
    expect(duplicate.res.status).toBe(409);
    expect(duplicate.body.errors[0].detail).toBe(ENGAGEMENT_OPTION_EXISTS);
    const foreign = await post('engagements-options', 'engagements-options', { engagementId: Number(otherEngagementId), optionId: Number(optionId) });
    expect(foreign.res.status).toBe(422);
    expect(foreign.body.errors[0]).toMatchObject({ detail: OPTION_ENGAGEMENT_INVALID, source: { pointer: '/data/attributes/engagementId' } });

    const updated = await patch('engagements-options', created.body.data.id, { weight: 9, isDisqualified: false });
    expect(updated.body.data.attributes).toMatchObject({ weight: 9, isDisqualified: false });
    expect((await patch('engagements-options', created.body.data.id, { weight: 1.5 })).res.status).toBe(422);

    const listed = await json(await h.request('GET', `/api/engagements-options?optionId=${optionId}`, { token: admin }));
    expect(listed.meta.total).toBe(1);
    expect((await h.request('GET', '/api/engagements-options?optionId=x', { token: admin })).status).toBe(400);

    const replaced = await h.request('POST', `/api/update-engagements-options/${optionId}`, {
      token: admin,
      body: doc('engagements-options', {
        engagementOptions: [
          { engagementId: Number(sameSponsorEngagementId), isDisqualified: true, weight: 2 },
          { engagementId: Number(engagementId), weight: 1 },
        ],
      }),
    });
    expect(replaced.status).toBe(200);
    const set = (await json(replaced)).data.map((r: { attributes: Record<string, unknown> }) => r.attributes);
    expect(set).toMatchObject([
      { engagementName: 'Legacy study', isDisqualified: false, weight: 1 },
      { engagementName: 'Second study', isDisqualified: true, weight: 2 },
    ]);
    const byEngagement = await json(
      await h.request('GET', `/api/engagements-options?engagementId=${sameSponsorEngagementId}&optionId=${optionId}`, { token: admin }),
    );
    expect(byEngagement.data).toHaveLength(1);

    // A bad set changes nothing.
    const bad = await h.request('POST', `/api/update-engagements-options/${optionId}/`, {
      token: admin,
      body: doc('engagements-options', {
        engagementOptions: [
          { engagementId: Number(engagementId), weight: 3 },
          { engagementId: Number(engagementId), weight: 4 },
          { engagementId: Number(otherEngagementId) },
        ],
      }),
    });
    expect(bad.status).toBe(422);
    const errors = (await json(bad)).errors;
    expect(errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/engagementOptions/1/engagementId',
      '/data/attributes/engagementOptions/2/engagementId',
    ]);
    expect(errors[0].detail).toBe(ENGAGEMENT_REPEATED);
    const rows = await h.db
      .select()
      .from(engagementOptions)
      .where(eq(engagementOptions.optionId, Number(optionId)));
    expect(rows.map((r) => r.weight).sort()).toEqual([1, 2]);

    const empty = await h.request('POST', `/api/update-engagements-options/${optionId}`, {
      token: admin,
      body: doc('engagements-options', { engagementOptions: [] }),
    });
    expect((await json(empty)).data).toEqual([]);
    expect(
      (await h.request('POST', '/api/update-engagements-options/999999', { token: admin, body: doc('engagements-options', { engagementOptions: [] }) })).status,
    ).toBe(404);

    // Hidden from a User of another sponsor, and gone with the option.
    const again = await post('engagements-options', 'engagements-options', { engagementId: Number(engagementId), optionId: Number(optionId) });
    await del('options', optionId);
    const afterDelete = await json(await h.request('GET', `/api/engagements-options?optionId=${optionId}`, { token: admin }));
    expect(afterDelete.meta.total).toBe(0);
    expect((await patch('engagements-options', again.body.data.id, { weight: 2 })).res.status).toBe(404);
  });
});
