/**
 * The admin's preview of one survey version, composed from the participant transport: the same
 * page and page-preview calls participants make (sent with a member of staff's token, so versions
 * not yet approved can be read), a survey the caller already knows, and nothing that would store
 * a run. The run ends at the outcome staff chose (qualified unless told): at notQualified,
 * noTrialSites or notActive the lead's form comes from the staff API's preview of it, which
 * checks it as sent and answers the thanks, keeping nothing.
 */
import type { SurveyDetail } from './surveys';
import type { LeadPreviewRequest } from './leads';
import type { LeadKind, PreviewOutcome } from '../model/lead';
import type { ContactTransport, RunnerSurvey, RunnerTransport } from '../survey/runner';
import type { ParticipantTransport } from '../participant/transport';

/** A version as the runner shows it, from the staff API's detail: English first, then its languages. */
export function previewSurvey(detail: SurveyDetail): RunnerSurvey {
  return {
    id: detail.form.id,
    identity: detail.form.identity,
    title: detail.form.title,
    containerCount: detail.pages.length,
    languages: ['en', ...detail.languages.map((l) => l.isoCode).filter((c) => c !== 'en')],
  };
}

/** The staff API's preview of a lead's form (core/api/leads.ts), as the preview uses it. */
export interface LeadPreviewApi {
  previewForm(request: LeadPreviewRequest): ReturnType<Required<ContactTransport>['leadFields']>;
  preview(
    request: LeadPreviewRequest & { values: Record<string, unknown>; acceptTerms: boolean; zip: string | null },
  ): ReturnType<Required<ContactTransport>['submitLead']>;
}

/** The outcome the preview ends at, and for a lead's outcome where its form is read: the screener, the version, the language. */
export interface PreviewEnd {
  outcome: PreviewOutcome;
  leads: LeadPreviewApi;
  request: Omit<LeadPreviewRequest, 'kind'>;
}

export function previewTransport(
  participant: Pick<ParticipantTransport, 'firstPage' | 'page' | 'previewAnswers'>,
  survey: RunnerSurvey,
  ending?: PreviewEnd,
): RunnerTransport & Partial<ContactTransport> {
  const refused = () => Promise.reject(new Error('A preview stores nothing.'));
  const kind: LeadKind | null = ending && ending.outcome !== 'qualified' ? ending.outcome : null;
  const transport: RunnerTransport = {
    loadSurvey: async () => survey,
    firstPage: participant.firstPage,
    page: participant.page,
    previewAnswers: participant.previewAnswers,
    createSubmission: refused,
    createEntry: refused,
    saveAnswers: refused,
    sanitize: refused,
    // No submission to qualify: the outcome chosen. A qualified preview ends there (the runner
    // stops a preview at qualified: sites and a referral's contact need a stored run).
    qualification: async () => (kind ? { isQualified: false, outcome: kind } : { isQualified: true, outcome: 'qualified' }),
  };
  if (!ending || !kind) return transport;
  const { leads, request } = ending;
  return {
    ...transport,
    sites: refused,
    contactFields: refused,
    submitContact: refused,
    leadFields: () => leads.previewForm({ ...request, kind }),
    submitLead: (_submission, lead) => leads.preview({ ...request, kind, values: lead.values, acceptTerms: lead.acceptTerms, zip: lead.zip }),
  };
}
