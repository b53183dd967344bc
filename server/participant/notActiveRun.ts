/**
 * A run refused as notActive before it began (its survey, screener or channel switched off, or
 * every engagement it refers to at its target or past its dates) still offers the outcome's lead
 * form, as a run that becomes notActive midway does. A lead is kept through a submission's token
 * (server/leads/participant.routes.ts), so where the screener asks contact fields the refusal
 * comes with a submission made already at notActive: never started (no started_at), so no count
 * of the funnel or of the channel's figures includes it (server/funnel/stages.ts: every count
 * narrows to started runs); finished, so no page is saved through it; no page entry, so answer retention has nothing of it to delete; no
 * client match, so it flags no retake. Its creation counts against the limits a submission's
 * does; over one, the refusal comes without it (the message alone, as before).
 */
import type { Context } from 'hono';
import { SUBMISSION_TOKEN_HEADER } from '@core/participant/wire';
import { nowOf, type Deps } from '../context';
import { oFormSubmissions } from '../db/schema';
import { issueToken } from './access';
import { hitLimits, runLanguage, screenerContactFields, submissionLimitChecks } from './api';
import type { RunTarget } from './runSurvey';
import { surveyLanguages } from './runSurvey';

/**
 * The submission a notActive run's lead is left through, its token in the answer's header; null
 * where no lead can be left (no approved survey, no contact fields asked) or a limit is reached.
 * `counted`: the caller has counted this call against the submission limits already.
 */
export async function notActiveRun(
  c: Context,
  deps: Deps,
  target: Pick<RunTarget, 'form' | 'channel' | 'screenerId'>,
  language: string | null,
  counted = false,
): Promise<string | null> {
  const { db, config } = deps;
  const { form, channel } = target;
  // An unapproved version runs for no one: no lead is left through it either.
  if (!form?.isApproved || (await screenerContactFields(db, target.screenerId)).length === 0) return null;
  const over = counted ? null : await hitLimits(db, nowOf(deps), config.participantLimits.windowSeconds, submissionLimitChecks(deps, c, channel?.id ?? null));
  if (over) return null;
  const languages = await surveyLanguages(db, form.id);
  const { token, hash } = issueToken();
  const [row] = await db
    .insert(oFormSubmissions)
    .values({
      oFormId: form.id,
      mediaChannelId: channel?.id ?? null,
      language: runLanguage(language, languages),
      outcome: 'notActive',
      // Ended as it is made: no page is ever answered through it.
      finishedAt: nowOf(deps),
      tokenHash: hash,
    })
    .returning({ id: oFormSubmissions.id });
  if (!row) return null;
  c.header(SUBMISSION_TOKEN_HEADER, token);
  c.header('Cache-Control', 'no-store');
  return String(row.id);
}
