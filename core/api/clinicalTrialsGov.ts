import { CTGOV_IMPORT_TYPE, CtgovPlanDocument, type CtgovSource } from '../model/clinicalTrialsGov';
import { parseAnswer, type ApiClient } from './client';

/** An engagement's sites from ClinicalTrials.gov: preview (writes nothing), then import. */
export function clinicalTrialsGovApi(client: ApiClient) {
  const call = (action: 'preview' | 'import', engagementId: string, source: CtgovSource) =>
    client.call(async (h) => {
      const doc = await h
        .post(`clinicaltrials-gov/${action}/${encodeURIComponent(engagementId)}`, {
          json: { data: { type: CTGOV_IMPORT_TYPE, attributes: source } },
          timeout: 60_000,
        })
        .json<unknown>();
      return parseAnswer(CtgovPlanDocument, doc, `the ClinicalTrials.gov ${action}`).meta;
    });
  return {
    preview: (engagementId: string, source: CtgovSource) => call('preview', engagementId, source),
    import: (engagementId: string, source: CtgovSource) => call('import', engagementId, source),
  };
}
