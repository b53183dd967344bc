/**
 * An approved survey with three pages, ready for a participant to run, written straight into
 * the database (no staff calls): a sponsor with two engagements, a screener serving both with a
 * media channel on `partner.example`, messages, languages (en, es), contact fields and one
 * engagement site. Each call makes rows of its own (unique names), so tests can call it often.
 *
 * The survey (identities are stable; ids differ per call):
 *   page p1  q_choice  single, required: yes (next page) | skip (jumps to p3) | stop (ends)
 *                      | no (disqualifies for every engagement) | no_e2 (disqualifies for engagement 2 only)
 *   page p2  q_dob     dob, required, ages 18..75;  q_text  text, optional, at most 20 characters
 *   page p3  q_zip     zip, required;  q_conditions  multiple: a | b | none
 * Pages are titled 'Page N'; p1 and p2 have Spanish titles ('Página N'), p3 none (written
 * straight in, the survey skips the approval that would ask for it).
 * Keep this API stable: the participant, contact and widget tests share it.
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FieldConfiguration, FieldType } from '@core/model/survey';
import type { Db } from '../../server/db/open';
import {
  contactFieldScreeners,
  contactFields,
  engagementScreeners,
  engagementSiteLocations,
  engagements,
  languages,
  mediaChannelSurveys,
  mediaChannels,
  oFormContainers,
  oFormFields,
  oFormLanguages,
  oForms,
  rmsProviders,
  screenerLanguages,
  screenerMessages,
  screenerSurveys,
  screeners,
  siteLocations,
  sponsors,
} from '../../server/db/schema';

export interface FixtureOptions {
  /** The media channel's domain (host name). Default partner.example. */
  domain?: string;
  /** Default true for each. */
  formActive?: boolean;
  approved?: boolean;
  channelActive?: boolean;
  screenerActive?: boolean;
  /**
   * The engagements' duplicate window in days. Default 0 (no duplicates): most tests leave the
   * same person's contact run after run; tests of duplicates name a window.
   */
  duplicateWindowDays?: number;
}

export interface FixtureRef {
  id: number;
  identity: string;
}

export interface ParticipantFixture {
  sponsorId: number;
  /** Two engagements of the screener; `no_e2` disqualifies for the second only. */
  engagementIds: [number, number];
  screenerId: number;
  mediaChannelId: number;
  domain: string;
  oFormId: number;
  oFormIdentity: string;
  pages: { p1: FixtureRef; p2: FixtureRef; p3: FixtureRef };
  fields: { q_choice: FixtureRef; q_dob: FixtureRef; q_text: FixtureRef; q_zip: FixtureRef; q_conditions: FixtureRef };
  /** An active site (New York, ZIP 10001) linked to the first engagement. */
  siteLocationId: number;
  engagementSiteLocationId: number;
  /** The screener's contact fields in weight order (first_name, email, phone). */
  contactFieldNames: string[];
}

const option = (value: string, extra: Partial<FieldConfiguration['options'][number]> = {}) => ({
  label: value.replace(/_/g, ' '),
  value,
  translations: { es: `${value} (es)` },
  isDisqualified: false,
  transition: null,
  ...extra,
});

export async function createParticipantFixture(db: Db, options: FixtureOptions = {}): Promise<ParticipantFixture> {
  const tag = randomBytes(4).toString('hex');
  const domain = options.domain ?? 'partner.example';

  const [sponsor] = await db
    .insert(sponsors)
    .values({ name: `Participant sponsor ${tag}`, identification: `PS${tag}` })
    .returning();
  const [e1, e2] = await db
    .insert(engagements)
    .values([
      { name: `Study one ${tag}`, sponsorId: sponsor!.id, identification: `E1${tag}`, duplicateWindowDays: options.duplicateWindowDays ?? 0 },
      { name: `Study two ${tag}`, sponsorId: sponsor!.id, identification: `E2${tag}`, duplicateWindowDays: options.duplicateWindowDays ?? 0 },
    ])
    .returning();
  const [screener] = await db
    .insert(screeners)
    .values({ title: `Screener ${tag}`, sponsorId: sponsor!.id, isActive: options.screenerActive ?? true })
    .returning();
  await db.insert(engagementScreeners).values([
    { screenerId: screener!.id, engagementId: e1!.id },
    { screenerId: screener!.id, engagementId: e2!.id },
  ]);

  const identity = `survey-${tag}`;
  const approved = options.approved ?? true;
  const [form] = await db
    .insert(oForms)
    .values({
      identity,
      title: `Participant survey ${tag}`,
      isActive: options.formActive ?? true,
      isApproved: approved,
      approvedAt: approved ? new Date() : null,
      engagementId: e1!.id,
      sponsorId: sponsor!.id,
      containerCount: 3,
    })
    .returning();
  const langRows = await db
    .select()
    .from(languages)
    .where(inArray(languages.isoCode, ['en', 'es']));
  await db.insert(oFormLanguages).values(langRows.map((l) => ({ oFormId: form!.id, languageId: l.id })));
  await db.insert(screenerLanguages).values(langRows.map((l) => ({ screenerId: screener!.id, languageId: l.id })));

  const pageRows = await db
    .insert(oFormContainers)
    .values(
      ['p1', 'p2', 'p3'].map((p, i): typeof oFormContainers.$inferInsert => ({
        identity: p,
        oFormId: form!.id,
        title: `Page ${i + 1}`,
        displayOrder: i + 1,
        translations: p === 'p3' ? {} : { es: { title: `Página ${i + 1}` } },
      })),
    )
    .returning();
  const page = (identity: string) => pageRows.find((p) => p.identity === identity)!;

  const field = (containerId: number, identity: string, type: FieldType, displayOrder: number, configuration: Partial<FieldConfiguration>) => ({
    identity,
    containerId,
    title: `Question ${identity}`,
    type,
    displayOrder,
    configuration: { required: false, helperText: null, translations: { es: { title: `Pregunta ${identity}` } }, options: [], ...configuration },
  });
  const fieldRows = await db
    .insert(oFormFields)
    .values([
      field(page('p1').id, 'q_choice', 'single', 1, {
        required: true,
        options: [
          option('yes'),
          option('skip', { transition: { to: 'page', identity: 'p3' } }),
          option('stop', { transition: { to: 'end' } }),
          option('no', { isDisqualified: true }),
          option('no_e2', { disqualifiedFor: [e2!.id] }),
        ],
      }),
      field(page('p2').id, 'q_dob', 'dob', 1, { required: true, minAge: 18, maxAge: 75 }),
      field(page('p2').id, 'q_text', 'text', 2, { maxLength: 20 }),
      field(page('p3').id, 'q_zip', 'zip', 1, { required: true }),
      field(page('p3').id, 'q_conditions', 'multiple', 2, { options: [option('a'), option('b'), option('none')] }),
    ])
    .returning();
  const ref = (rows: { id: number; identity: string }[], identity: string): FixtureRef => {
    const row = rows.find((r) => r.identity === identity)!;
    return { id: row.id, identity: row.identity };
  };

  await db.insert(screenerSurveys).values({ screenerId: screener!.id, oFormIdentity: identity, displayOrder: 1 });
  const [channel] = await db
    .insert(mediaChannels)
    .values({ title: `Channel ${tag}`, domain, screenerId: screener!.id, channelType: 'Partner Website', isActive: options.channelActive ?? true })
    .returning();
  await db.insert(mediaChannelSurveys).values({ mediaChannelId: channel!.id, oFormIdentity: identity });

  await db.insert(screenerMessages).values([
    {
      screenerId: screener!.id,
      outcome: 'notQualified',
      contactFormMessage: '<p>Not a match <script>alert(1)</script><strong>this time</strong>.</p>',
      consentMessage: 'May we contact you about other studies?',
      translations: { es: { contactFormMessage: '<p>No es adecuado <em>esta vez</em>.</p>' } },
    },
    { screenerId: screener!.id, outcome: 'qualified', contactFormMessage: 'You may qualify!', consentMessage: 'I agree to be contacted.', translations: {} },
  ]);

  const names = ['first_name', 'email', 'phone'];
  const cf = await db.select().from(contactFields).where(inArray(contactFields.name, names));
  await db.insert(contactFieldScreeners).values(
    names.flatMap((name, weight) => {
      const found = cf.find((c) => c.name === name);
      return found ? [{ screenerId: screener!.id, contactFieldId: found.id, weight }] : [];
    }),
  );

  const [site] = await db
    .insert(siteLocations)
    .values({
      name: `Manhattan site ${tag}`,
      streetAddress: '1 Penn Plaza',
      city: 'New York',
      state: 'NY',
      zipCode: '10001',
      latitude: 40.7506,
      longitude: -73.9972,
    })
    .returning();
  const [link] = await db.insert(engagementSiteLocations).values({ engagementId: e1!.id, siteLocationId: site!.id }).returning();

  return {
    sponsorId: sponsor!.id,
    engagementIds: [e1!.id, e2!.id],
    screenerId: screener!.id,
    mediaChannelId: channel!.id,
    domain,
    oFormId: form!.id,
    oFormIdentity: identity,
    pages: { p1: ref(pageRows, 'p1'), p2: ref(pageRows, 'p2'), p3: ref(pageRows, 'p3') },
    fields: {
      q_choice: ref(fieldRows, 'q_choice'),
      q_dob: ref(fieldRows, 'q_dob'),
      q_text: ref(fieldRows, 'q_text'),
      q_zip: ref(fieldRows, 'q_zip'),
      q_conditions: ref(fieldRows, 'q_conditions'),
    },
    siteLocationId: site!.id,
    engagementSiteLocationId: link!.id,
    contactFieldNames: names.filter((n) => cf.some((c) => c.name === n)),
  };
}

/** What tests send and read around a run, over any `request(method, path, {body, headers})`. */
export interface ParticipantRequester {
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Pick<Response, 'status' | 'json' | 'text'> & { headers: Pick<Headers, 'get'> }>;
}

export const TOKEN_HEADER = 'Survey-Submission-Token';

/** The headers of a participant request made with a submission's token. */
export const withToken = (token: string) => ({ [TOKEN_HEADER]: token });

/** Starts a submission through the API; answers its id, token and the first page's entry id. */
export async function startSubmission(
  h: ParticipantRequester,
  fixture: Pick<ParticipantFixture, 'oFormId' | 'mediaChannelId' | 'pages'>,
  options: {
    language?: string;
    mediaChannelId?: number | null;
    mediaChannelUrl?: string;
    utm?: Record<string, string>;
    fields?: Record<string, string>;
    /** As the widget starts: the first page's entry opened with the submission, in one call. */
    withFirstPage?: boolean;
  } = {},
): Promise<{ submissionId: string; token: string; firstEntryId: string }> {
  const channel = options.mediaChannelId === undefined ? fixture.mediaChannelId : options.mediaChannelId;
  const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
    body: {
      data: {
        type: 'o-form-submissions',
        attributes: {
          oFormId: fixture.oFormId,
          ...(channel === null ? {} : { mediaChannelId: channel }),
          language: options.language ?? 'en',
          ...(options.mediaChannelUrl === undefined ? {} : { mediaChannelUrl: options.mediaChannelUrl }),
          ...(options.utm === undefined ? {} : { utm: options.utm }),
          ...(options.fields === undefined ? {} : { fields: options.fields }),
          ...(options.withFirstPage ? { oFormContainerId: fixture.pages.p1.id } : {}),
        },
      },
    },
  });
  if (res.status !== 201) throw new Error(`submission not created: ${res.status} ${await res.text()}`);
  const token = res.headers.get(TOKEN_HEADER);
  const body = (await res.json()) as { data: { id: string }; meta?: { containerEntryId: string } };
  if (!token) throw new Error('no token header');
  if (options.withFirstPage) {
    if (!body.meta) throw new Error('no first page entry');
    return { submissionId: body.data.id, token, firstEntryId: body.meta.containerEntryId };
  }
  const entry = await h.request('POST', '/api/o-forms/o-form-container-entries', {
    headers: { [TOKEN_HEADER]: token },
    body: { data: { type: 'o-form-container-entries', attributes: { oFormContainerId: fixture.pages.p1.id, oFormSubmissionId: Number(body.data.id) } } },
  });
  if (entry.status !== 201) throw new Error(`entry not created: ${entry.status} ${await entry.text()}`);
  const entryBody = (await entry.json()) as { data: { id: string } };
  return { submissionId: body.data.id, token, firstEntryId: entryBody.data.id };
}

/** Patches a page entry's answers; answers the status and meta. */
export async function answerPage(
  h: ParticipantRequester,
  token: string,
  entryId: string,
  answers: Record<string, unknown>,
): Promise<{
  status: number;
  meta: { success: boolean; nextContainerIdentity?: string | null; nextContainerEntryId?: string | null; errors?: Record<string, string> };
}> {
  const res = await h.request('PATCH', `/api/o-forms/o-form-submission-page/${entryId}`, {
    headers: { [TOKEN_HEADER]: token },
    body: { data: { type: 'o-form-submission-pages', id: entryId, attributes: { answers } } },
  });
  const body = (await res.json()) as { meta: never };
  return { status: res.status, meta: body.meta };
}

/**
 * Runs the survey to its end qualifying for both engagements (yes, an adult's birthday, a ZIP
 * near the fixture's site); answers the submission's id and token.
 */
export async function runQualified(
  h: ParticipantRequester,
  fixture: ParticipantFixture,
  options: { zip?: string; language?: string; mediaChannelUrl?: string; utm?: Record<string, string>; fields?: Record<string, string> } = {},
): Promise<{ submissionId: string; token: string }> {
  const { zip: _zip, ...start } = options;
  const { submissionId, token, firstEntryId } = await startSubmission(h, fixture, start);
  const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'yes' });
  const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15', q_text: 'hello' });
  const p3 = await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: options.zip ?? '10001', q_conditions: ['a'] });
  if (p3.meta.nextContainerIdentity !== null) throw new Error('the survey did not end after page 3');
  return { submissionId, token };
}

/**
 * Runs the survey to its end qualifying for neither engagement (no to the first question, then
 * an adult's birthday and `zip`, by default one near the fixture's site); answers the
 * submission's id and token.
 */
export async function runNotQualified(
  h: ParticipantRequester,
  fixture: ParticipantFixture,
  options: { zip?: string; language?: string } = {},
): Promise<{ submissionId: string; token: string }> {
  const { submissionId, token, firstEntryId } = await startSubmission(h, fixture, { language: options.language });
  const p1 = await answerPage(h, token, firstEntryId, { q_choice: 'no' });
  const p2 = await answerPage(h, token, p1.meta.nextContainerEntryId!, { q_dob: '1980-06-15' });
  await answerPage(h, token, p2.meta.nextContainerEntryId!, { q_zip: options.zip ?? '10001', q_conditions: ['a'] });
  return { submissionId, token };
}

/**
 * Makes a webhook the record system of the fixture's first engagement, so that its contacts are
 * pushed there; answers the provider's id. `signingSecret` is stored as given (sealed or not).
 */
export async function sendReferralsTo(
  db: Db,
  fixture: Pick<ParticipantFixture, 'engagementIds'>,
  provider: { name: string; endpointUrl: string; signingSecret: string },
): Promise<number> {
  const [row] = await db
    .insert(rmsProviders)
    .values({ kind: 'webhook', timeoutMs: 10_000, ...provider })
    .returning({ id: rmsProviders.id });
  await db.update(engagements).set({ rmsProviderId: row!.id }).where(eq(engagements.id, fixture.engagementIds[0]));
  return row!.id;
}

/** Sends a run's contact step: `values` at the fixture's site, the terms accepted. Answers the response. */
export function leaveContact<R>(
  h: { request(method: string, path: string, options: { body: unknown; headers: Record<string, string> }): Promise<R> },
  fixture: Pick<ParticipantFixture, 'engagementSiteLocationId'>,
  run: { submissionId: string; token: string },
  values: Record<string, unknown>,
): Promise<R> {
  return h.request('POST', `/api/o-forms/o-form-submission-contact/${run.submissionId}`, {
    headers: { [TOKEN_HEADER]: run.token },
    body: { data: { attributes: { engagementSiteLocationId: String(fixture.engagementSiteLocationId), values, acceptTerms: true } } },
  });
}

/** Sends a run's lead step (its contact kept for a site to come) with `attributes`. Answers the response. */
export function leaveLead<R>(
  h: { request(method: string, path: string, options: { body: unknown; headers: Record<string, string> }): Promise<R> },
  run: { submissionId: string; token: string },
  attributes: Record<string, unknown>,
): Promise<R> {
  return h.request('POST', `/api/o-forms/o-form-submission-lead/${run.submissionId}`, {
    headers: { [TOKEN_HEADER]: run.token },
    body: { data: { attributes } },
  });
}
