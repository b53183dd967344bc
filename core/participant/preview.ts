/**
 * The admin's preview of one survey version, composed from the participant transport: the same
 * page and page-preview calls participants make (sent with a member of staff's token, so versions
 * not yet approved can be read), a survey the caller already knows, and nothing that would store
 * a run.
 */
import type { OFormDetail } from '../api/oforms';
import type { RunnerSurvey, RunnerTransport } from '../oform/runner';
import type { ParticipantTransport } from './transport';

/** A version as the runner shows it, from the staff API's detail: English first, then its languages. */
export function previewSurvey(detail: OFormDetail): RunnerSurvey {
  return {
    id: detail.form.id,
    identity: detail.form.identity,
    title: detail.form.title,
    containerCount: detail.pages.length,
    languages: ['en', ...detail.languages.map((l) => l.isoCode).filter((c) => c !== 'en')],
  };
}

export function previewTransport(participant: Pick<ParticipantTransport, 'firstPage' | 'page' | 'previewAnswers'>, survey: RunnerSurvey): RunnerTransport {
  const refused = () => Promise.reject(new Error('A preview stores nothing.'));
  return {
    loadSurvey: async () => survey,
    firstPage: participant.firstPage,
    page: participant.page,
    previewAnswers: participant.previewAnswers,
    createSubmission: refused,
    createEntry: refused,
    saveAnswers: refused,
    sanitize: refused,
    qualification: refused,
  };
}
