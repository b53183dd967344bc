/**
 * What a survey version's exports hold: the file names, the version a PDF link exports, the
 * PDF's content (pdf/surveyPdf.ts draws it) and the page metrics the CSV and the chart show
 * (pageMetrics.ts counts them). Each follows the surveys' sponsor scope.
 */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { FIELD_TYPE_NAMES } from '@core/model/survey';
import { NO_APPROVED_VERSION } from '@core/model/surveyExport';
import { DEFAULT_SURVEY_MESSAGES, SURVEY_MESSAGE_TYPES } from '@core/model/surveyMessage';
import { nowOf, type AuthUser, type Deps } from '../context';
import type { Db } from '../db/open';
import { questionRules } from '@core/survey/rulesInWords';
import { engagements, languages, oFormLanguages, oFormMessages, oForms, users } from '../db/schema';
import { engagementScope } from '../engagements';
import { pageMetrics } from './pageMetrics';
import { Conflict, NotFound } from '../errors';
import type { PdfMessage, PdfPage, SurveyPdf } from '../pdf/surveyPdf';
import { loadStructure } from './structure';
import { findForm, selectForms, type FormRow } from './versions';

/** A file name from the survey's title: letters, digits and hyphens, then the version. */
export function exportFilename(form: Pick<FormRow, 'title' | 'version'>, extension: string, suffix = ''): string {
  const slug = form.title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `${slug || 'survey'}-v${form.version}${suffix}.${extension}`;
}

/** Messages are stored as HTML; the PDF shows their text. */
const plainText = (html: string) =>
  html
    .replace(/<(br|\/p|\/div|\/li)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Everything the PDF shows of one version. */
export async function surveyPdfContent(db: Db, form: FormRow, user: AuthUser): Promise<SurveyPdf> {
  const structure = await loadStructure(db, form.id);
  const pages = structure.containers.filter((c) => c.parentId === null);
  const pageNames = new Map(pages.map((p, i) => [p.identity, `Page ${i + 1}: ${p.title}`]));
  const surveyTargets = [
    ...new Set(structure.fields.flatMap((f) => f.configuration.options.flatMap((o) => (o.transition?.to === 'survey' ? [o.transition.identity] : [])))),
  ];
  const surveyNames = new Map<string, string>();
  if (surveyTargets.length) {
    const rows = await db
      .select({ identity: oForms.identity, title: oForms.title })
      .from(oForms)
      .innerJoin(engagements, eq(engagements.id, oForms.engagementId))
      .where(and(inArray(oForms.identity, surveyTargets), engagementScope(user)))
      .orderBy(asc(oForms.version));
    // The latest version's title wins.
    for (const r of rows) surveyNames.set(r.identity, r.title);
  }
  const langs = await db
    .select({ name: languages.name, isoCode: languages.isoCode, isDefault: languages.isDefault })
    .from(oFormLanguages)
    .innerJoin(languages, eq(languages.id, oFormLanguages.languageId))
    .where(eq(oFormLanguages.oFormId, form.id))
    .orderBy(desc(languages.isDefault), asc(languages.name));
  const others = langs.filter((l) => !l.isDefault);
  const pdfPages: PdfPage[] = pages.map((page) => {
    const inside = structure.containers.filter((c) => c.id === page.id || c.parentId === page.id);
    const rank = (containerId: number) => {
      const container = inside.find((c) => c.id === containerId);
      return container === undefined || container.id === page.id ? 0 : container.displayOrder;
    };
    const fields = structure.fields
      .filter((f) => inside.some((c) => c.id === f.containerId))
      .sort((a, b) => rank(a.containerId) - rank(b.containerId) || a.displayOrder - b.displayOrder);
    return {
      title: page.title,
      translations: langs.flatMap((l) => {
        const title = page.translations[l.isoCode]?.title?.trim();
        return !l.isDefault && title ? [{ language: l.name, title }] : [];
      }),
      isActive: page.isActive,
      questions: fields.map((f) => ({
        title: f.title,
        typeName: FIELD_TYPE_NAMES[f.type] ?? f.type,
        required: f.configuration.required,
        isActive: f.isActive,
        helperText: f.configuration.helperText,
        // Every text in every other language of the survey, so a reviewer reads what participants do.
        translations: others.flatMap((l) => {
          const t = f.configuration.translations[l.isoCode];
          const title = t?.title?.trim() ?? '';
          const helperText = t?.helperText?.trim() ?? '';
          return title || helperText ? [{ language: l.name, title, helperText }] : [];
        }),
        rules: questionRules(f.type, f.configuration, pages),
        options: f.configuration.options.map((o) => ({
          label: o.label,
          translations: others.flatMap((l) => (o.translations[l.isoCode]?.trim() ? [{ language: l.name, label: o.translations[l.isoCode]!.trim() }] : [])),
          value: o.value,
          isDisqualified: o.isDisqualified,
          transition:
            o.transition === null
              ? null
              : o.transition.to === 'end'
                ? 'End of survey'
                : o.transition.to === 'page'
                  ? (pageNames.get(o.transition.identity) ?? 'A page that no longer exists')
                  : `Survey: ${surveyNames.get(o.transition.identity) ?? o.transition.identity}`,
        })),
      })),
    };
  });
  const own = await db
    .select({ messageType: oFormMessages.messageType, language: oFormMessages.language, message: oFormMessages.message })
    .from(oFormMessages)
    .where(eq(oFormMessages.oFormVersionId, form.id))
    .orderBy(asc(oFormMessages.language));
  const messages: PdfMessage[] = SURVEY_MESSAGE_TYPES.flatMap((type) => {
    const rows = own.filter((m) => m.messageType === type);
    const list: PdfMessage[] = rows.map((m) => ({ type, language: m.language, message: plainText(m.message), isDefault: false }));
    if (!rows.some((m) => m.language === 'en')) list.unshift({ type, language: 'en', message: DEFAULT_SURVEY_MESSAGES[type].en, isDefault: true });
    // A language of the survey without its own text shows what participants get: the shipped default.
    for (const l of others) {
      const shipped = (DEFAULT_SURVEY_MESSAGES[type] as Record<string, string | undefined>)[l.isoCode];
      if (!rows.some((m) => m.language === l.isoCode) && shipped) list.push({ type, language: l.isoCode, message: shipped, isDefault: true });
    }
    return list;
  });
  const [approval] = form.approvedAt
    ? await db.select({ username: users.username }).from(oForms).innerJoin(users, eq(users.id, oForms.approvedBy)).where(eq(oForms.id, form.id))
    : [];
  return {
    title: form.title,
    identity: form.identity,
    approvedBy: approval?.username ?? null,
    version: form.version,
    isApproved: form.isApproved,
    approvedAt: form.approvedAt,
    engagementName: form.engagementName,
    sponsorName: form.sponsorName,
    languages: langs.map((l) => l.name),
    pages: pdfPages,
    messages,
  };
}

/** The version a PDF link exports: this one, or with `approved` the approved version of its survey (409 while there is none). */
export async function exportedVersion(db: Db, form: FormRow, user: AuthUser, approved: boolean): Promise<FormRow> {
  if (!approved) return form;
  const [found] = await selectForms(db)
    .where(and(eq(oForms.identity, form.identity), eq(oForms.isApproved, true), engagementScope(user)))
    .orderBy(desc(oForms.version))
    .limit(1);
  if (!found) throw new Conflict(NO_APPROVED_VERSION);
  return found;
}

/** A version the user may reach (404 otherwise) with its page metrics, for the CSV export and the drop-off chart. */
export async function versionPageMetrics(deps: Deps, id: number | null, user: AuthUser) {
  const form = await findForm(deps.db, id, user);
  if (!form) throw new NotFound('survey');
  return { form, metrics: await pageMetrics(deps.db, form, { now: nowOf(deps), abandonMinutes: deps.config.funnelAbandonMinutes }) };
}
