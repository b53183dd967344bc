/**
 * Every paged list answers the same way: page 2 holds the 11th to 20th rows of the list's own
 * order, meta.total counts every row that matches, rows that tie on the sort come in id order
 * (so pages never overlap or skip a row), and a User sees only their sponsors' rows. The rows
 * are made here, twelve of each, all equal on the field sorted by, so the expected order is
 * the order they were made in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import {
  contactFieldScreeners,
  contactFields,
  engagementFiles,
  engagementOptions,
  engagementSiteLocations,
  engagements,
  languages,
  mediaChannelSurveys,
  mediaChannels,
  oFormMessages,
  oForms,
  questionCategories,
  screenerLanguages,
  screenerSurveys,
  screeners,
  siteLocations,
  sponsors,
  surveyOptions,
  surveyPages,
  surveyQuestions,
  surveys,
  users,
} from '../../../server/db/schema';
import { SURVEY_MESSAGE_TYPES } from '@core/model/surveyMessage';
import { createHarness, json, type Harness } from '../harness';

const N = 12;
const twelve = <T>(make: (i: number) => T): T[] => Array.from({ length: N }, (_, i) => make(i));

let h: Harness;
let admin: string;
let mine: string;
let other: string;

/** A list's query (its own filter and a sort every row ties on) and its rows' ids in order. */
const cases: Record<string, { path: string; ids: string[] }> = {};
/** Lists for staff admins, or not by sponsor; a User's sponsors are their own list (sponsors.test.ts). */
const NOT_BY_SPONSOR = new Set(['sponsors', 'users', 'categories']);

const ids = (rows: { id: number }[]) => rows.map((r) => String(r.id));

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  const [sponsor, otherSponsor] = await h.db
    .insert(sponsors)
    .values([
      { name: 'Paging sponsor', identification: 'PAGING' },
      { name: 'Elsewhere', identification: 'ELSEWHERE' },
    ])
    .returning();
  const sponsorId = sponsor!.id;
  await h.createUser({ username: 'paging-mine', roles: ['User'], sponsorIds: [sponsorId] });
  await h.createUser({ username: 'paging-other', roles: ['User'], sponsorIds: [otherSponsor!.id] });
  mine = await h.token('paging-mine', 'a-good-password');
  other = await h.token('paging-other', 'a-good-password');

  const pagingSponsors = await h.db
    .insert(sponsors)
    .values(twelve((i) => ({ name: 'Paged sponsor', identification: `PAGED-${i}` })))
    .returning();
  cases.sponsors = { path: '/api/sponsors?searchQuery=Paged%20sponsor&sort=name', ids: ids(pagingSponsors) };

  const studies = await h.db
    .insert(engagements)
    .values(twelve((i) => ({ name: 'Paging study', identification: `PAGING-${i}`, sponsorId })))
    .returning();
  const study = studies[0]!;
  cases.engagements = { path: `/api/engagements?sponsorId=${sponsorId}&sort=name`, ids: ids(studies) };

  const sites = await h.db
    .insert(siteLocations)
    .values(twelve((i) => ({ name: `Paging site ${i}`, siteId: `PAGING-${i}`, city: 'Pageton' })))
    .returning();
  const siteLinks = await h.db
    .insert(engagementSiteLocations)
    .values(sites.map((s) => ({ engagementId: study.id, siteLocationId: s.id })))
    .returning();
  cases.siteLinks = { path: `/api/engagements-site-locations?engagementId=${study.id}&sort=city`, ids: ids(siteLinks) };
  // The studies linked to the first site come first (the first study has every site), the
  // rest after them, each part by id.
  const associated = [study, studies[5]!, studies[11]!];
  await h.db.insert(engagementSiteLocations).values([studies[5]!, studies[11]!].map((e) => ({ engagementId: e.id, siteLocationId: sites[0]!.id })));
  cases.associated = {
    path: `/api/engagements?sponsorId=${sponsorId}&sort=name&sortAssociated=${sites[0]!.id}`,
    ids: ids([...associated, ...studies.filter((e) => !associated.includes(e))]),
  };

  const files = await h.db
    .insert(engagementFiles)
    .values(twelve((i) => ({ engagementId: study.id, filename: `paging-${i}.txt`, mime: 'text/plain', size: 7, storageKey: `paging-${i}` })))
    .returning();
  cases.files = { path: `/api/engagements-o-files?engagementId=${study.id}&sort=size`, ids: ids(files) };

  const pagingUsers = await h.db
    .insert(users)
    .values(twelve((i) => ({ username: `paging-user-${String(i).padStart(2, '0')}` })))
    .returning();
  cases.users = { path: '/api/users?searchQuery=paging-user-&sort=isActive', ids: ids(pagingUsers) };

  await h.db.insert(questionCategories).values(twelve((i) => ({ name: `Paging category ${i}` })));
  const categories = await h.db.select({ id: questionCategories.id }).from(questionCategories).orderBy(asc(questionCategories.id));
  cases.categories = { path: '/api/o-forms/o-form-field-categories?sort=id', ids: ids(categories) };

  const forms = await h.db
    .insert(oForms)
    .values(twelve((i) => ({ identity: `paging-form-${i}`, title: 'Paging form', engagementId: study.id, sponsorId })))
    .returning();
  cases.forms = { path: `/api/o-forms/o-forms?engagementId=${study.id}&sort=title`, ids: ids(forms) };

  const form = forms[0]!;
  // Nine types in English, then three in Spanish: sorted by language, each language by id.
  const messages = await h.db
    .insert(oFormMessages)
    .values(
      twelve((i) => ({
        oFormIdentity: form.identity,
        oFormVersionId: form.id,
        messageType: SURVEY_MESSAGE_TYPES[i % 9]!,
        language: i < 9 ? 'en' : 'es',
        message: 'Thanks',
      })),
    )
    .returning();
  cases.messages = { path: `/api/o-forms/o-form-messages?o_form_version_id=${form.id}&sort=language`, ids: ids(messages) };

  const legacy = await h.db
    .insert(surveys)
    .values(twelve((i) => ({ title: 'Paging survey', globalId: `paging-${i}`, engagementId: study.id })))
    .returning();
  cases.surveys = { path: '/api/surveys?searchQuery=Paging%20survey&sort=title', ids: ids(legacy) };
  const [page] = await h.db.insert(surveyPages).values({ surveyId: legacy[0]!.id, title: 'Page 1' }).returning();
  const [question] = await h.db.insert(surveyQuestions).values({ pageId: page!.id, questionType: 'multiple', title: 'Which?' }).returning();
  const [option] = await h.db.insert(surveyOptions).values({ questionId: question!.id, label: 'Yes', value: 'yes' }).returning();
  const optionLinks = await h.db
    .insert(engagementOptions)
    .values(studies.map((e) => ({ engagementId: e.id, optionId: option!.id })))
    .returning();
  cases.options = { path: `/api/engagements-options?optionId=${option!.id}&sort=weight`, ids: ids(optionLinks) };

  const [screener] = await h.db.insert(screeners).values({ title: 'Paging screener', sponsorId }).returning();
  const fields = await h.db
    .insert(contactFields)
    .values(twelve((i) => ({ label: `Paging field ${i}`, name: `paging_field_${i}` })))
    .returning();
  const fieldLinks = await h.db
    .insert(contactFieldScreeners)
    .values(fields.map((f) => ({ screenerId: screener!.id, contactFieldId: f.id, weight: 3 })))
    .returning();
  cases.contactFields = { path: `/api/contact-fields-screeners?screenerId=${screener!.id}&sort=weight`, ids: ids(fieldLinks) };

  const screenerForms = await h.db
    .insert(screenerSurveys)
    .values(forms.map((f) => ({ screenerId: screener!.id, oFormIdentity: f.identity })))
    .returning();
  cases.screenerSurveys = { path: `/api/screener-surveys?screenerId=${screener!.id}&sort=displayOrder`, ids: ids(screenerForms) };

  const [channel] = await h.db
    .insert(mediaChannels)
    .values({ title: 'Paging channel', domain: 'paging.example', screenerId: screener!.id, channelType: 'Other' })
    .returning();
  const channelForms = await h.db
    .insert(mediaChannelSurveys)
    .values(forms.map((f) => ({ mediaChannelId: channel!.id, oFormIdentity: f.identity })))
    .returning();
  cases.channelSurveys = { path: `/api/media-channel-surveys?mediaChannelId=${channel!.id}&sort=isActive`, ids: ids(channelForms) };

  const spoken = await h.db
    .insert(languages)
    .values(twelve((i) => ({ name: `Paging ${i}`, description: 'Paging', isoCode: `pg_${String.fromCharCode(65 + i)}${String.fromCharCode(65 + i)}` })))
    .returning();
  await h.db.insert(screenerLanguages).values(spoken.map((l) => ({ screenerId: screener!.id, languageId: l.id })));
  cases.screenerLanguages = {
    path: `/api/screeners/languages-screeners?screenerId=${screener!.id}&sort=description`,
    ids: spoken.map((l) => `${screener!.id}_${l.id}`),
  };

  // Rewrite the first half of each list's rows: the new row versions stand after the others in
  // the table, so rows that tie come back in id order only because the list asks for it.
  for (const table of [
    'sponsors',
    'engagements',
    'engagement_site_locations',
    'engagement_files',
    'users',
    'o_forms',
    'o_form_messages',
    'surveys',
    'engagement_options',
    'contact_field_screeners',
    'screener_surveys',
    'media_channel_surveys',
  ]) {
    await h.db.execute(sql`update ${sql.identifier(table)} set id = id where id in (select id from ${sql.identifier(table)} order by id limit ${N / 2})`);
  }
  await h.db.execute(
    sql`update screener_languages set language_id = language_id where language_id in (select language_id from screener_languages order by language_id limit ${N / 2})`,
  );
});
afterAll(async () => {
  await h?.close();
});

async function list(path: string, token: string) {
  const res = await h.request('GET', path, { token });
  expect(res.status, path).toBe(200);
  return json<{ data: { id: string }[]; meta: { total: number; page: number; limit: number } }>(res);
}

describe('paged lists', () => {
  const names = [
    'sponsors',
    'engagements',
    'associated',
    'siteLinks',
    'files',
    'users',
    'categories',
    'forms',
    'messages',
    'surveys',
    'options',
    'contactFields',
    'screenerSurveys',
    'channelSurveys',
    'screenerLanguages',
  ];

  it.each(names)('%s: page 2 continues page 1 in the sort, ties by id, with the total in meta', async (name) => {
    const { path, ids: expected } = cases[name]!;
    expect(expected.length).toBeGreaterThan(10);
    const first = await list(`${path}&limit=10`, admin);
    expect(first.meta).toMatchObject({ total: expected.length, page: 1, limit: 10 });
    expect(first.data.map((r) => r.id)).toEqual(expected.slice(0, 10));
    const second = await list(`${path}&limit=10&page=2`, admin);
    expect(second.meta).toMatchObject({ total: expected.length, page: 2, limit: 10 });
    expect(second.data.map((r) => r.id)).toEqual(expected.slice(10, 20));
  });

  it.each(names.filter((n) => !NOT_BY_SPONSOR.has(n)))('%s: a User sees their sponsor’s rows and none of another’s', async (name) => {
    const { path, ids: expected } = cases[name]!;
    const theirs = await list(`${path}&limit=10&page=2`, mine);
    expect(theirs.meta.total).toBe(expected.length);
    expect(theirs.data.map((r) => r.id)).toEqual(expected.slice(10, 20));
    const others = await list(`${path}&limit=10`, other);
    expect(others.meta.total).toBe(0);
    expect(others.data).toEqual([]);
  });
});
