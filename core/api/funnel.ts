import type { ListParams } from '../jsonapi';
import { FUNNEL_DEFINITIONS, FunnelDefinitions, type FunnelFigure } from '../model/funnel';
import type { FunnelRow } from '../model/funnelRow';
import type { SurveyPageMetrics } from '../model/surveyExport';
import { parseAnswer, type ApiClient, type DownloadedFile } from './client';

/** The recruitment funnel (GET /api/recruitment-funnel) and a survey version's page metrics. */
export function funnelApi(client: ApiClient) {
  return {
    /** One row per group, with the server's sentence for each figure. */
    async rows(params: ListParams = {}): Promise<{ rows: FunnelRow[]; definitions: Record<FunnelFigure, string> }> {
      const { items, meta } = await client.list<FunnelRow>('recruitment-funnel', params);
      // A stage the server does not define keeps this client's sentence.
      const definitions = meta.definitions === undefined ? {} : parseAnswer(FunnelDefinitions, meta.definitions, 'the funnel');
      return { rows: items, definitions: { ...FUNNEL_DEFINITIONS, ...definitions } };
    },
    /** The same rows as the server's CSV file (Accept: text/csv). */
    csv: (params: ListParams = {}): Promise<DownloadedFile> => client.listCsv('recruitment-funnel', params),
    /** Per page of a survey version: views, completions, drop-off and time on page, in display order. */
    pageMetrics: async (formId: string): Promise<SurveyPageMetrics[]> =>
      (await client.list<SurveyPageMetrics>(`survey-page-metrics/${encodeURIComponent(formId)}`)).items,
  };
}
