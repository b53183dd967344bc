import type { Relationship } from '../jsonapi';
import type { SurveyVersion } from '../model/surveyDoc';
import { OFORM_TYPE } from '../model/survey';
import type { MissingTranslation, MissingTranslationAttributes, SurveyExport, SurveyLanguage } from '../model/surveyExport';
import { dispositionFilename, type ApiClient } from './client';

const id = (value: string) => encodeURIComponent(value);

/** A survey's languages, the translations it still lacks, and its PDF and metrics exports. */
export function surveyExportsApi(client: ApiClient) {
  /** A file fetched with the bearer token (never a token in the URL). */
  const download = async (path: string, fallback: string): Promise<{ blob: Blob; filename: string }> => {
    const response = await client.call((h) => h.get(path, { timeout: 120_000 }));
    return { blob: await response.blob(), filename: dispositionFilename(response.headers.get('content-disposition')) ?? fallback };
  };
  const exportPdf = (formId: string, showApproved: boolean) =>
    client.create<SurveyExport>(`o-forms/export-to-pdf/${id(formId)}/${showApproved ? 1 : 0}`, 'o-form-exports', {});

  return {
    /** Every active language, isEnabled for those the survey is offered in (the default always). */
    languages: async (formId: string): Promise<SurveyLanguage[]> => (await client.list<SurveyLanguage>('o-forms/languages-o-forms', { oFormId: formId })).items,
    /** Replaces the survey's languages; the default language stays whatever the list says. */
    setLanguages: (formId: string, languageIds: string[]) => {
      const relationships: Record<string, Relationship> = { languages: { data: languageIds.map((l) => ({ type: 'languages', id: l })) } };
      return client.update<SurveyVersion>(`o-forms/o-forms/${id(formId)}`, OFORM_TYPE, formId, {}, relationships);
    },
    /** What blocks approval: texts without a translation in an enabled language. */
    missingTranslations: async (formId: string): Promise<MissingTranslation[]> => {
      const { data } = await client.call((h) =>
        h.get(`o-forms/o-forms/${id(formId)}/missing-translations`).json<{ data: { attributes: MissingTranslationAttributes }[] }>(),
      );
      return data.map(({ attributes: { itemId, ...rest } }) => ({ ...rest, id: itemId }));
    },
    /** Where to fetch the PDF of this version (false) or of its survey's approved version (true). */
    exportPdf,
    /** The PDF itself, as exportPdf names it. */
    async downloadPdf(formId: string, showApproved: boolean): Promise<{ blob: Blob; filename: string }> {
      const made = await exportPdf(formId, showApproved);
      return download(made.url.replace(/^\/?api\//, ''), made.filename);
    },
    /** Per page: views, completions, drop-off and median seconds, as CSV. */
    downloadMetrics: (formId: string) => download(`export-survey-metrics/${id(formId)}`, `survey-${formId}-metrics.csv`),
  };
}
