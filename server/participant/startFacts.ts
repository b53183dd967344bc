/**
 * What a participant's start reads — the survey version, the channel (a join on nothing they
 * share; none for a null id), whether the version runs through it and the languages it offers —
 * in one query, with the participant settings version it was read at
 * (participant_settings_version, raised by a trigger on every table this query reads). A process
 * keeps a read that let a run start; the next start through the same survey and channel decides
 * on it without reading again, and its write re-checks the version in the same statement
 * (entries.ts createSubmission): a kept read that a change made stale writes nothing and is read
 * again.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { keptPerDatabase } from '../db/rowCache';
import { preparedQuery } from '../db/prepared';
import { mediaChannels, oForms, participantSettingsVersion } from '../db/schema';
import { identityScreenerColumn, offeredLanguagesColumn, runFactColumns } from './runSurvey';

/** The query, unprepared: its SQL names every table a start's decision rests on. */
export const startFactsSelect = (db: Db) =>
  db
    .select({
      form: oForms,
      channel: mediaChannels,
      facts: { ...runFactColumns(oForms.identity, mediaChannels.id, mediaChannels.screenerId), identityScreener: identityScreenerColumn(oForms.identity) },
      languages: offeredLanguagesColumn(oForms.id),
      settingsVersion: sql<number>`coalesce((select version from ${participantSettingsVersion}), 0)`.mapWith(Number),
    })
    .from(oForms)
    .leftJoin(mediaChannels, eq(mediaChannels.id, sql.placeholder('mediaChannelId')))
    .where(eq(oForms.id, sql.placeholder('oFormId')));

const startFactsQuery = preparedQuery((db) => startFactsSelect(db).prepare('participant_form_and_channel'));

export type StartFacts = Awaited<ReturnType<ReturnType<typeof startFactsQuery>['execute']>>[number];

const kept = keptPerDatabase<string, StartFacts>(1000);
const keyOf = (oFormId: number, mediaChannelId: number | null) => `${oFormId}:${mediaChannelId ?? ''}`;

/**
 * What a start decides on at its `attempt` (0, 1, 2…): the kept read first; read again once a
 * write found it stale; and from the third attempt on, `settingsVersion` is null — the write takes
 * the settings as they are, as every start did before reads were kept — so a start ends however
 * often staff change them meanwhile.
 */
export async function startFacts(
  db: Db,
  oFormId: number,
  mediaChannelId: number | null,
  attempt: number,
): Promise<{ found: StartFacts | undefined; settingsVersion: number | null }> {
  const known = attempt === 0 ? kept.get(db, keyOf(oFormId, mediaChannelId)) : undefined;
  const found = known ?? (await startFactsQuery(db).execute({ oFormId, mediaChannelId }))[0];
  return { found, settingsVersion: found && attempt < 2 ? found.settingsVersion : null };
}

/** Keeps facts a run started on, for the next start through the same survey and channel. */
export function keepStartFacts(db: Db, oFormId: number, mediaChannelId: number | null, facts: StartFacts): void {
  kept.set(db, keyOf(oFormId, mediaChannelId), facts);
}

/** Forgets kept facts a write found stale. */
export function forgetStartFacts(db: Db, oFormId: number, mediaChannelId: number | null): void {
  const key = keyOf(oFormId, mediaChannelId);
  kept.deleteWhere(db, (k) => k === key);
}
