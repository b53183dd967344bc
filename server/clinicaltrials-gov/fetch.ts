/**
 * A study record fetched from the ClinicalTrials.gov API v2 (`GET {CTGOV_API_URL}/studies/{nctId}`),
 * with a time limit. A failure to reach it, or an answer that is not a study, is an error that
 * says so; nothing is written on either.
 */
export const DEFAULT_CTGOV_API_URL = 'https://clinicaltrials.gov/api/v2';
const TIMEOUT_MS = 15_000;

export class StudyUnavailable extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

export async function fetchStudy(baseUrl: string, nctId: string, timeoutMs = TIMEOUT_MS): Promise<unknown> {
  const url = `${baseUrl.replace(/\/+$/, '')}/studies/${encodeURIComponent(nctId)}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : 'could not connect';
    throw new StudyUnavailable(`ClinicalTrials.gov could not be reached (${why}); nothing was imported.`);
  }
  if (res.status === 404) throw new StudyUnavailable(`ClinicalTrials.gov has no study ${nctId}.`, true);
  if (!res.ok) throw new StudyUnavailable(`ClinicalTrials.gov answered ${res.status} for ${nctId}; nothing was imported.`);
  try {
    return await res.json();
  } catch {
    throw new StudyUnavailable(`ClinicalTrials.gov answered ${nctId} with something that is not JSON; nothing was imported.`);
  }
}
