import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { auditEvents, languages, oFormContainerEntries, oFormContainers, oFormLanguages, oFormPageMetrics, oFormSubmissions } from '../../../server/db/schema';
import { APPROVED_IMMUTABLE } from '@core/model/surveyDoc';
import { NO_APPROVED_VERSION, SURVEY_METRICS_COLUMNS } from '@core/model/surveyExport';
import { createApiClient } from '@core/api/client';
import { surveyExportsApi } from '@core/api/surveyExports';
import { doc, json, useHarness, type Harness } from '../harness';
import { resourceCalls } from '../resourceCalls';
import { scopedEngagements } from '../staffRecords';

let h: Harness;
let admin: string;
let userToken: string;
let engagementId: string;
let otherEngagementId: string;
let englishId: string;
let spanishId: string;

const { post, patch } = resourceCalls(
  () => h,
  '/api/o-forms',
  () => admin,
);
const setLanguages = (formId: string, ids: string[], token = admin) =>
  patch('o-forms', formId, {}, token, { languages: { data: ids.map((id) => ({ type: 'languages', id })) } });

async function newForm(title: string, engagement = engagementId, token = admin) {
  const { res, body } = await post('o-forms', 'o-forms', { title, engagementId: Number(engagement) }, token);
  expect(res.status).toBe(201);
  const form = body.data as { id: string; attributes: { identity: string } };
  const read = await json(await h.request('GET', `/api/o-forms/o-forms/${form.id}`, { token: admin }));
  return { ...form, firstPage: read.data.relationships.oFormContainers.data[0].id as string };
}
async function addPage(formId: string, title: string) {
  const { res, body } = await post('o-form-containers', 'o-form-containers', { oFormId: Number(formId), title });
  expect(res.status).toBe(201);
  return body.data as { id: string; attributes: { identity: string } };
}
async function addField(containerId: string, attributes: Record<string, unknown>) {
  const { res, body } = await post('o-form-fields', 'o-form-fields', { containerId: Number(containerId), ...attributes });
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data as { id: string; attributes: { configuration: Record<string, unknown> } };
}
const formLanguages = async (formId: string, token = admin) => {
  const res = await h.request('GET', `/api/o-forms/languages-o-forms?oFormId=${formId}`, { token });
  expect(res.status).toBe(200);
  return (await json(res)).data as {
    id: string;
    type: string;
    attributes: { isoCode: string; isEnabled: boolean; languageId: string; oFormId: string; name: string };
  }[];
};
const enabledCodes = async (formId: string) => (await formLanguages(formId)).filter((l) => l.attributes.isEnabled).map((l) => l.attributes.isoCode);
const missing = async (formId: string) => {
  const res = await h.request('GET', `/api/o-forms/o-forms/${formId}/missing-translations`, { token: admin });
  expect(res.status).toBe(200);
  const data = (await json(res)).data as { type: string; id: string; attributes: { kind: string; itemId: string; title: string; language: string } }[];
  // Each is a resource of its own, named by language, kind and text; read back as the admin reads it.
  for (const r of data) expect([r.type, r.id]).toEqual(['missing-translations', `${r.attributes.language}:${r.attributes.kind}:${r.attributes.itemId}`]);
  return data.map(({ attributes: { itemId, ...rest } }) => ({ ...rest, id: itemId }));
};

useHarness(async (server) => {
  h = server;
  admin = await h.token();
  ({ engagementId, otherEngagementId, userToken } = await scopedEngagements(h, admin, { name: 'Export', code: 'EXS', username: 'export-user' }));
  const langs = await h.db.select().from(languages);
  englishId = String(langs.find((l) => l.isoCode === 'en')!.id);
  spanishId = String(langs.find((l) => l.isoCode === 'es')!.id);
});

describe('languages of a survey', () => {
  it('lists every active language with isEnabled; a PATCH replaces the set and English always stays', async () => {
    const form = await newForm('Language survey');
    const listed = await formLanguages(form.id);
    expect(listed.map((l) => l.id).sort()).toEqual([`${form.id}-${englishId}`, `${form.id}-${spanishId}`].sort());
    expect(listed[0]).toMatchObject({ type: 'languages-o-forms', attributes: { oFormId: form.id } });
    expect(await enabledCodes(form.id)).toEqual(['en']);

    const set = await setLanguages(form.id, [spanishId]);
    expect(set.res.status).toBe(200);
    expect(set.body.data.relationships.languages.data.map((l: { id: string }) => l.id).sort()).toEqual([englishId, spanishId].sort());
    expect((await enabledCodes(form.id)).sort()).toEqual(['en', 'es']);

    // Leaving English out of the list does not remove it.
    expect((await setLanguages(form.id, [])).res.status).toBe(200);
    expect(await enabledCodes(form.id)).toEqual(['en']);

    // A new survey may name its languages at once.
    const withSpanish = await h.request('POST', '/api/o-forms/o-forms', {
      token: admin,
      body: doc('o-forms', { title: 'Born bilingual', engagementId: Number(engagementId) }, undefined, {
        languages: { data: [{ type: 'languages', id: spanishId }] },
      }),
    });
    expect(withSpanish.status).toBe(201);
    expect((await enabledCodes((await json(withSpanish)).data.id)).sort()).toEqual(['en', 'es']);

    // A copy takes the languages along.
    await setLanguages(form.id, [spanishId]);
    const copy = await post('o-form-copy', 'o-form-copy', { copy_identity: form.attributes.identity });
    expect((await enabledCodes(copy.body.data.id)).sort()).toEqual(['en', 'es']);
  });

  it('refuses bad requests and other sponsors’ surveys, and freezes an approved version', async () => {
    const form = await newForm('Language errors');
    expect((await h.request('GET', '/api/o-forms/languages-o-forms', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/languages-o-forms?oFormId=abc', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/o-forms/languages-o-forms?oFormId=99999999', { token: admin })).status).toBe(404);
    const bad = await setLanguages(form.id, ['99999999']);
    expect(bad.res.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/relationships/languages/data');
    const wrongType = await patch('o-forms', form.id, {}, admin, { languages: { data: [{ type: 'tags', id: spanishId }] } });
    expect(wrongType.res.status).toBe(422);

    const other = await newForm('Language other', otherEngagementId);
    expect((await h.request('GET', `/api/o-forms/languages-o-forms?oFormId=${other.id}`, { token: userToken })).status).toBe(404);
    expect((await setLanguages(other.id, [spanishId], userToken)).res.status).toBe(404);

    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);
    const frozen = await setLanguages(form.id, [spanishId]);
    expect(frozen.res.status).toBe(409);
    expect(frozen.body.errors[0].detail).toBe(APPROVED_IMMUTABLE);
    expect(await enabledCodes(form.id)).toEqual(['en']);
    // isActive alone still toggles an approved version.
    expect((await patch('o-forms', form.id, { isActive: false })).res.status).toBe(200);
  });
});

describe('approval and missing translations', () => {
  it('blocks mark_approved with 422 missing_translations until every text has its translation', async () => {
    const form = await newForm('Translated survey');
    const question = await addField(form.firstPage, {
      oFormFieldTypeId: 'single',
      title: 'Do you smoke?',
      configuration: {
        helperText: 'Cigarettes only',
        options: [
          { label: 'Yes', value: 'yes' },
          { label: 'No', value: 'no' },
        ],
      },
    });
    await addField(form.firstPage, { oFormFieldTypeId: 'text', title: 'Inactive question', isActive: false });
    const second = await addPage(form.id, 'Second page');
    const inactivePage = await addPage(form.id, 'Switched off');
    expect((await patch('o-form-containers', inactivePage.id, { isActive: false })).res.status).toBe(200);
    // English only: nothing to translate.
    expect(await missing(form.id)).toEqual([]);

    await setLanguages(form.id, [spanishId]);
    // The shipped Spanish defaults cover the messages while the version keeps the English defaults.
    // Page titles come first, in page order; a page participants cannot reach asks for nothing.
    expect(await missing(form.id)).toEqual([
      { kind: 'page', id: form.firstPage, title: 'New Page 1', language: 'es' },
      { kind: 'page', id: second.id, title: 'Second page', language: 'es' },
      { kind: 'question', id: question.id, title: 'Do you smoke?', language: 'es' },
      { kind: 'helperText', id: question.id, title: 'Cigarettes only', language: 'es' },
      { kind: 'option', id: `${question.id}:yes`, title: 'Yes', language: 'es' },
      { kind: 'option', id: `${question.id}:no`, title: 'No', language: 'es' },
    ]);
    // An English message of its own needs its own Spanish.
    const own = await post('o-form-messages', 'o-form-messages', {
      oFormVersionId: Number(form.id),
      messageType: 'not_qualified_consent',
      message: 'Our own words',
    });
    expect(own.res.status).toBe(201);
    const expected = [...(await missing(form.id))];
    expect(expected.at(-1)).toEqual({ kind: 'message', id: 'not_qualified_consent', title: 'not_qualified_consent', language: 'es' });

    const refused = await patch('o-form-versions', form.id, { mark_approved: true });
    expect(refused.res.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'missing_translations', meta: { code: 'missing_translations', missing: expected } });
    expect((await json(await h.request('GET', `/api/o-forms/o-forms/${form.id}`, { token: admin }))).data.attributes.isApproved).toBe(false);

    await patch('o-form-fields', question.id, {
      configuration: {
        helperText: 'Cigarettes only',
        translations: { es: { title: '¿Fuma?', helperText: 'Solo cigarrillos' } },
        options: [
          { label: 'Yes', value: 'yes', translations: { es: 'Sí' } },
          { label: 'No', value: 'no', translations: { es: 'No' } },
        ],
      },
    });
    await post('o-form-messages', 'o-form-messages', {
      oFormVersionId: Number(form.id),
      messageType: 'not_qualified_consent',
      language: 'es',
      message: 'Nuestras palabras',
    });
    expect((await patch('o-form-containers', form.firstPage, { translations: { es: { title: 'Página uno' } } })).res.status).toBe(200);
    // A blank translation is no translation.
    expect((await patch('o-form-containers', second.id, { translations: { es: { title: '  ' } } })).res.status).toBe(200);
    expect(await missing(form.id)).toEqual([{ kind: 'page', id: second.id, title: 'Second page', language: 'es' }]);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(422);
    expect((await patch('o-form-containers', second.id, { translations: { es: { title: 'Página dos' } } })).res.status).toBe(200);
    expect(await missing(form.id)).toEqual([]);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);
  });

  it('asks a language without shipped defaults for all nine messages, and forgets it once disabled', async () => {
    const created = await h.request('POST', '/api/languages', {
      token: admin,
      body: doc('languages', { name: 'Français', description: 'French', isoCode: 'fr' }),
    });
    expect(created.status).toBe(201);
    const frenchId = (await json(created)).data.id as string;
    const form = await newForm('French survey');
    await setLanguages(form.id, [frenchId]);
    const items = await missing(form.id);
    expect(items.filter((i) => i.kind === 'message')).toHaveLength(9);
    // The survey's default page holds no question yet: its title and the messages are missing.
    expect(items[0]).toEqual({ kind: 'page', id: form.firstPage, title: 'New Page 1', language: 'fr' });
    expect(items.slice(1).every((i) => i.kind === 'message' && i.language === 'fr')).toBe(true);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(422);
    await setLanguages(form.id, []);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);
  });
});

/** Every text item of the PDF, in reading order, joined by lines. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  // The standard fonts' metrics ship with pdfjs-dist; without them it warns for each font.
  const standardFontDataUrl = fileURLToPath(new URL('../../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const pdf = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise;
  const lines: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) lines.push(item.str);
  }
  await pdf.destroy();
  return lines.join('\n');
}

describe('PDF export', () => {
  it('renders title, version, approval, pages, questions, options with their targets and marks, and messages', async () => {
    const form = await newForm('Sleep study screener');
    const second = await addPage(form.id, 'Sleep habits');
    const third = await addPage(form.id, 'Wrap-up');
    const questions = [
      await addField(form.firstPage, {
        oFormFieldTypeId: 'single',
        title: 'Are you 18 or older?',
        configuration: {
          required: true,
          options: [
            { label: 'Yes, I am', value: 'yes', transition: { to: 'page', identity: third.attributes.identity } },
            { label: 'Not yet', value: 'no', isDisqualified: true, transition: { to: 'end' } },
          ],
        },
      }),
      await addField(form.firstPage, { oFormFieldTypeId: 'dob', title: 'Your date of birth' }),
      await addField(second.id, {
        oFormFieldTypeId: 'multiple',
        title: 'Which of these apply?',
        configuration: { options: [{ label: 'Snoring', value: 'snore' }] },
      }),
      // Characters Helvetica cannot encode must not break the export.
      await addField(third.id, { oFormFieldTypeId: 'text', title: 'Zdravím → 你好 ✓ Ωmega', configuration: { helperText: 'Über “quotes”' } }),
    ];
    const labels = ['Yes, I am', 'Not yet', 'Snoring'];

    const exported = await h.request('POST', `/api/o-forms/export-to-pdf/${form.id}/0`, { token: admin });
    expect(exported.status).toBe(200);
    const body = await json(exported);
    expect(body.data).toMatchObject({
      type: 'o-form-exports',
      id: form.id,
      attributes: { filename: 'sleep-study-screener-v1.pdf', url: `/api/o-forms/o-form-exports/${form.id}` },
    });
    // The audit trail records every export asked for.
    const audits = await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'export-link'));
    expect(audits.some((e) => e.entity === 'o-forms' && e.entityId === String(form.id) && e.actorUsername === 'admin')).toBe(true);
    const file = await h.request('GET', body.data.attributes.url, { token: admin });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="sleep-study-screener-v1\.pdf"/);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = await pdfText(bytes);
    for (const title of ['Sleep study screener', 'Version 1', 'Not approved', 'Sleep habits', 'Wrap-up']) expect(text).toContain(title);
    expect(questions).toHaveLength(4);
    for (const title of ['Are you 18 or older?', 'Your date of birth', 'Which of these apply?']) expect(text).toContain(title);
    // í is WinAnsi; the arrow, the Chinese, the tick and the Omega are not.
    expect(text).toContain('Zdravím ? ?? ? ?mega');
    expect(text).toContain('Über “quotes”');
    for (const label of labels) expect(text).toContain(label);
    for (const piece of ['Page 3: Wrap-up', 'End of survey', '[DISQUALIFIES]', 'Single choice - required', 'not_qualified_consent']) {
      expect(text).toContain(piece);
    }

    // showApproved=1: the approved version of the survey, once there is one.
    const none = await h.request('POST', `/api/o-forms/export-to-pdf/${form.id}/1`, { token: admin });
    expect(none.status).toBe(409);
    expect((await json(none)).errors[0].detail).toBe(NO_APPROVED_VERSION);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);
    const next = await post('o-form-copy', 'o-form-copy', { copy_identity: form.attributes.identity });
    const approved = await json(await h.request('POST', `/api/o-forms/export-to-pdf/${next.body.data.id}/1`, { token: admin }));
    expect(approved.data.id).toBe(form.id);
    const approvedText = await pdfText(new Uint8Array(await (await h.request('GET', approved.data.attributes.url, { token: admin })).arrayBuffer()));
    expect(approvedText).toMatch(/Approved on \d{4}-\d{2}-\d{2}/);
    const own = await json(await h.request('POST', `/api/o-forms/export-to-pdf/${next.body.data.id}/0`, { token: admin }));
    expect(own.data.attributes.filename).toBe('sleep-study-screener-v2.pdf');
  });

  it('carries every Spanish text, every rule in words, and who approved it when: the IRB packet', async () => {
    const form = await newForm('Heart packet');
    await setLanguages(form.id, [spanishId]);
    const last = await addPage(form.id, 'Where you live');
    await patch('o-form-containers', form.firstPage, { title: 'About you', translations: { es: { title: 'Sobre usted' } } });
    await patch('o-form-containers', last.id, { translations: { es: { title: 'Dónde vive' } } });
    await addField(form.firstPage, {
      oFormFieldTypeId: 'single',
      title: 'How many days a week do you exercise?',
      configuration: {
        helperText: 'Count any day with 30 minutes or more.',
        translations: { es: { title: '¿Cuántos días a la semana hace ejercicio?', helperText: 'Cuente cada día con 30 minutos o más.' } },
        options: [
          { label: 'Fewer than 4 days', value: 'few', isDisqualified: true, translations: { es: 'Menos de 4 días' } },
          { label: '4 days or more', value: 'more', transition: { to: 'page', identity: last.attributes.identity }, translations: { es: '4 días o más' } },
        ],
      },
    });
    await addField(form.firstPage, {
      oFormFieldTypeId: 'dob',
      title: 'Your date of birth',
      configuration: { minAge: 18, maxAge: 65, translations: { es: { title: 'Su fecha de nacimiento' } } },
    });
    await addField(last.id, { oFormFieldTypeId: 'zip', title: 'Your ZIP code', configuration: { translations: { es: { title: 'Su código postal' } } } });
    const spanish = [
      'Sobre usted',
      'Dónde vive',
      '¿Cuántos días a la semana hace ejercicio?',
      'Cuente cada día con 30 minutos o más.',
      'Menos de 4 días',
      '4 días o más',
      'Su fecha de nacimiento',
      'Su código postal',
    ];
    // The version's own Spanish message, and the shipped Spanish text of the others.
    await post('o-form-messages', 'o-form-messages', {
      oFormVersionId: Number(form.id),
      messageType: 'not_qualified_consent',
      language: 'es',
      message: '<p>Lo sentimos, no califica.</p>',
    });
    for (const type of [
      'completed_contact_form',
      'no_trial_sites_consent',
      'no_trial_sites_contact_form',
      'not_active_consent',
      'not_active_contact_form',
      'not_qualified_contact_form',
      'trial_site_selected_consent',
      'trial_site_selected_contact_form',
    ]) {
      await post('o-form-messages', 'o-form-messages', { oFormVersionId: Number(form.id), messageType: type, language: 'es', message: `Mensaje ${type}` });
    }
    expect(await missing(form.id)).toEqual([]);
    expect((await patch('o-form-versions', form.id, { mark_approved: true })).res.status).toBe(200);

    const exported = await json(await h.request('POST', `/api/o-forms/export-to-pdf/${form.id}/0`, { token: admin }));
    const text = await pdfText(new Uint8Array(await (await h.request('GET', exported.data.attributes.url, { token: admin })).arrayBuffer()));
    for (const es of spanish) expect(text).toContain(es);
    for (const piece of [
      'Lo sentimos, no califica.',
      'Mensaje trial_site_selected_contact_form',
      'Rule: Disqualifies: Fewer than 4 days',
      'Rule: 4 days or more -> Page: Where you live',
      'Rule: Age 18–65, else disqualified',
    ]) {
      expect(text).toContain(piece);
    }
    expect(text).toMatch(/Approved on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC by admin/);
    expect(text).toContain('Version 1');
  });

  it('answers 400 for a bad showApproved and 404 outside the sponsor scope', async () => {
    const other = await newForm('Other export', otherEngagementId);
    expect((await h.request('POST', `/api/o-forms/export-to-pdf/${other.id}/2`, { token: admin })).status).toBe(400);
    expect((await h.request('POST', `/api/o-forms/export-to-pdf/${other.id}/0`, { token: userToken })).status).toBe(404);
    expect((await h.request('GET', `/api/o-forms/o-form-exports/${other.id}`, { token: userToken })).status).toBe(404);
    expect((await h.request('GET', `/api/o-forms/o-form-exports/${other.id}`)).status).toBe(401);
    expect((await h.request('POST', '/api/o-forms/export-to-pdf/abc/0', { token: admin })).status).toBe(404);
  });
});

describe('metrics CSV', () => {
  const csv = async (formId: string, token = admin) => {
    const res = await h.request('GET', `/api/export-survey-metrics/${formId}`, { token });
    return { res, text: await res.text() };
  };

  it('answers the header and a zero row per page for a survey nobody ran', async () => {
    const form = await newForm('Quiet survey');
    await addPage(form.id, '=HYPERLINK("x")');
    const { res, text } = await csv(form.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="quiet-survey-v1-metrics\.csv"/);
    expect(text.split('\r\n')).toEqual([SURVEY_METRICS_COLUMNS.join(','), '1,New Page 1,0,0,0,,', `2,"'=HYPERLINK(""x"")",0,0,0,,`, '']);
  });

  it('counts per page the runs that reached it, answered it and left it there, and the time on it', async () => {
    const form = await newForm('Busy survey');
    const second = await addPage(form.id, 'Second');
    const pages = await h.db
      .select()
      .from(oFormContainers)
      .where(eq(oFormContainers.oFormId, Number(form.id)));
    const p1 = pages.find((p) => p.id === Number(form.firstPage))!;
    const p2 = pages.find((p) => p.identity === second.attributes.identity)!;
    // Relative to the server's clock (the wall clock here): activity minutes ago.
    const T = h.clock().getTime();
    const minutesBefore = (m: number) => new Date(T - m * 60_000);
    /** A run: the pages it reached (answered or not), finished or not, last active `idle` minutes before T. */
    const run = async (reached: [number, boolean][], options: { finished?: boolean; idle: number }) => {
      const [s] = await h.db
        .insert(oFormSubmissions)
        .values({
          oFormId: Number(form.id),
          tokenHash: `hash-${Math.random()}`,
          modified: minutesBefore(options.idle),
          finishedAt: options.finished ? minutesBefore(options.idle) : null,
        })
        .returning();
      for (const [containerId, answered] of reached) {
        await h.db
          .insert(oFormContainerEntries)
          .values({ submissionId: s!.id, containerId, created: minutesBefore(60), answeredAt: answered ? minutesBefore(options.idle) : null });
      }
      return s!.id;
    };
    await run(
      [
        [p1.id, true],
        [p2.id, true],
      ],
      { finished: true, idle: 40 },
    );
    await run(
      [
        [p1.id, true],
        [p2.id, true],
      ],
      { idle: 40 },
    ); // answered the last page, never reached the end
    await run(
      [
        [p1.id, true],
        [p2.id, false],
      ],
      { idle: 40 },
    ); // left on page 2
    await run([[p1.id, false]], { idle: 45 }); // left on page 1
    await run([[p1.id, false]], { idle: 10 }); // still within FUNNEL_ABANDON_MINUTES (30): not yet abandoned
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s));
    const rows: [string, number, number | null][] = [
      [p1.identity, 0, 10],
      [p1.identity, 0, 20],
      [p1.identity, 0, 45],
      [p1.identity, 0, null],
      [p2.identity, 0, 5],
      [p2.identity, 0, 8],
      [p2.identity, 0, null],
    ];
    const timed = await run([], { idle: 500 });
    for (const [identity, start, stop] of rows) {
      await h.db
        .insert(oFormPageMetrics)
        .values({ submissionId: timed, oFormId: Number(form.id), identity, start: at(start), stop: stop === null ? null : at(stop) });
    }
    const { text } = await csv(form.id);
    expect(text.split('\r\n')).toEqual([SURVEY_METRICS_COLUMNS.join(','), '1,New Page 1,5,3,1,20,45', '2,Second,3,2,2,6.5,8', '']);
    const chart = await json(await h.request('GET', `/api/survey-page-metrics/${form.id}`, { token: admin }));
    expect(chart.data.map((r: { attributes: object }) => r.attributes)).toEqual([
      { page: 1, identity: p1.identity, title: 'New Page 1', views: 5, completions: 3, dropOff: 1, medianSeconds: 20, p90Seconds: 45 },
      { page: 2, identity: p2.identity, title: 'Second', views: 3, completions: 2, dropOff: 2, medianSeconds: 6.5, p90Seconds: 8 },
    ]);

    const other = await newForm('Other metrics', otherEngagementId);
    expect((await csv(other.id, userToken)).res.status).toBe(404);
    expect((await h.request('GET', `/api/survey-page-metrics/${other.id}`, { token: userToken })).status).toBe(404);
    expect((await csv('abc')).res.status).toBe(404);
    expect((await h.request('GET', `/api/export-survey-metrics/${form.id}`)).status).toBe(401);
  });
});

describe('languages table', () => {
  it('keeps the default language on every survey created', async () => {
    const form = await newForm('Default language row');
    const rows = await h.db
      .select()
      .from(oFormLanguages)
      .where(eq(oFormLanguages.oFormId, Number(form.id)));
    expect(rows.map((r) => String(r.languageId))).toEqual([englishId]);
  });
});

describe('core API client for exports', () => {
  it('lists and sets languages, lists missing translations, and downloads the PDF and the metrics CSV', async () => {
    const api = surveyExportsApi(
      createApiClient({ baseUrl: 'http://app.test/api', getToken: () => admin, fetch: async (input, init) => h.app.request(new Request(input, init)) }),
    );
    const form = await newForm('Client export survey');
    await addField(form.firstPage, { oFormFieldTypeId: 'yes_no', title: 'Ready?', configuration: { options: [{ label: 'Yes', value: 'y' }] } });
    expect((await api.languages(form.id)).filter((l) => l.isEnabled).map((l) => l.isoCode)).toEqual(['en']);
    await api.setLanguages(form.id, [spanishId]);
    const languagesNow = await api.languages(form.id);
    expect(languagesNow.find((l) => l.isoCode === 'es')).toMatchObject({
      id: `${form.id}-${spanishId}`,
      languageId: spanishId,
      oFormId: form.id,
      isEnabled: true,
    });
    expect((await api.missingTranslations(form.id)).map((m) => m.kind)).toEqual(['page', 'question', 'option']);
    expect((await patch('o-form-containers', form.firstPage, { translations: { es: { title: 'Página de prueba' } } })).res.status).toBe(200);
    expect((await api.missingTranslations(form.id)).map((m) => m.kind)).toEqual(['question', 'option']);

    const pdf = await api.downloadPdf(form.id, false);
    expect(pdf.filename).toBe('client-export-survey-v1.pdf');
    const text = await pdfText(new Uint8Array(await pdf.blob.arrayBuffer()));
    expect(text).toContain('Ready?');
    // The page's heading, then its title in each of the survey's other languages.
    expect(text).toMatch(/Page 1: New Page 1\s+Español: Página de prueba\s/);
    await expect(api.downloadPdf(form.id, true)).rejects.toMatchObject({ status: 409, message: expect.stringContaining(NO_APPROVED_VERSION) });

    const metrics = await api.downloadMetrics(form.id);
    expect(metrics.filename).toBe('client-export-survey-v1-metrics.csv');
    expect(await metrics.blob.text()).toBe(`${SURVEY_METRICS_COLUMNS.join(',')}\r\n1,New Page 1,0,0,0,,\r\n`);
  });
});
