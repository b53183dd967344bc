/**
 * Screener clones: a copy of a screener with everything hanging off it (its surveys become
 * copies of its own), its removal with those copies, and bringing its surveys up to date with
 * its source's.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { VERSION_RACE } from '@core/model/surveyDoc';
import type { Db, Tx } from '../db/open';
import { contactFieldScreeners, engagementScreeners, oForms, screenerLanguages, screenerMessages, screenerSurveys, screeners } from '../db/schema';
import { Conflict } from '../errors';
import { rethrowConstraint } from '../http/sql';
import { copiesMadeFor, copyIntoScreener, existingIdentities, screenerCopyIdentity } from '../surveys';
import { lockedProblem, type ScreenerRow } from './access';
import { NOT_A_CLONE, SCREENER_HAS_MEDIA_CHANNELS, mediaChannelCount, onConstraint } from './screeners';
import { insertedRow } from '../db/rows';

/** One survey of a clone brought up to date: the new version of its copy, and where it came from. */
export interface SurveyRefresh {
  sourceIdentity: string;
  sourceVersionId: string;
  oFormIdentity: string;
  oFormId: string;
}

/** Copies a screener with everything hanging off it, in the caller's transaction. */
async function cloneScreener(tx: Tx, source: ScreenerRow, title: string, userId: number): Promise<number> {
  const copy = await insertedRow(
    tx
      .insert(screeners)
      .values({
        title,
        description: source.description,
        sponsorId: source.sponsorId,
        userId,
        screenerType: source.screenerType,
        isActive: source.isActive,
        isLocked: false,
        isTest: source.isTest,
        isInterestVisible: source.isInterestVisible,
        translations: source.translations,
        styles: source.styles,
        clonedFromId: source.id,
      })
      .returning({ id: screeners.id }),
  );
  const id = copy.id;
  const from = source.id;
  await tx.execute(sql`insert into ${screenerMessages} (screener_id, outcome, consent_message, contact_form_message, translations)
    select ${id}, outcome, consent_message, contact_form_message, translations from ${screenerMessages} where screener_id = ${from}`);
  await tx.execute(
    sql`insert into ${screenerLanguages} (screener_id, language_id) select ${id}, language_id from ${screenerLanguages} where screener_id = ${from}`,
  );
  await tx.execute(
    sql`insert into ${engagementScreeners} (screener_id, engagement_id) select ${id}, engagement_id from ${engagementScreeners} where screener_id = ${from}`,
  );
  await tx.execute(
    sql`insert into ${contactFieldScreeners} (screener_id, contact_field_id, weight) select ${id}, contact_field_id, weight from ${contactFieldScreeners} where screener_id = ${from}`,
  );
  // Each survey becomes a survey of the clone's own (a deep copy of its latest version); a link
  // naming an identity without versions is copied as it is.
  const links = await tx.select().from(screenerSurveys).where(eq(screenerSurveys.screenerId, from)).orderBy(asc(screenerSurveys.id));
  const surveys = await existingIdentities(
    tx,
    links.map((l) => l.oFormIdentity),
  );
  const linked = new Set([...surveys].map((identity) => screenerCopyIdentity(id, identity)));
  for (const link of links) {
    const copy = surveys.has(link.oFormIdentity) ? await copyIntoScreener(tx, id, link.oFormIdentity, { preferApproved: false, linked }) : null;
    await tx
      .insert(screenerSurveys)
      .values({ screenerId: id, oFormIdentity: copy?.identity ?? link.oFormIdentity, isActive: link.isActive, displayOrder: link.displayOrder });
  }
  return id;
}

/** Clones a screener in one transaction; answers the copy's id. */
export async function createClone(db: Db, source: ScreenerRow, title: string, userId: number): Promise<number> {
  return db.transaction((tx) => cloneScreener(tx, source, title, userId)).catch(onConstraint);
}

/** Deletes a clone with the surveys copied for it, every version. */
export async function deleteClone(db: Db, existing: ScreenerRow): Promise<void> {
  if (existing.clonedFromId === null) throw new Conflict(NOT_A_CLONE);
  if (existing.isLocked) throw lockedProblem();
  const channels = await mediaChannelCount(db, existing.id);
  if (channels > 0) throw new Conflict(SCREENER_HAS_MEDIA_CHANNELS(channels));
  await db.transaction(async (tx) => {
    // The surveys copied for it go with it, every version; the rest hangs off it (ON DELETE CASCADE).
    const copies = await copiesMadeFor(tx, existing.id);
    if (copies.length) await tx.delete(oForms).where(inArray(oForms.identity, copies));
    await tx.delete(screeners).where(eq(screeners.id, existing.id));
  });
}

/** A survey version a refresh made, with its title and version number. */
export interface RefreshedSurvey extends SurveyRefresh {
  version: number;
  title: string;
}

/**
 * Brings a clone's surveys up to date with its source's: each survey the clone still has gets a
 * new, unapproved version copied from the source survey's approved version (its latest when none
 * is approved). Answers the versions made.
 */
export async function refreshCloneSurveys(db: Db, existing: ScreenerRow): Promise<RefreshedSurvey[]> {
  if (existing.clonedFromId === null) throw new Conflict('Only a clone takes its surveys from its source.');
  if (existing.isLocked) throw lockedProblem();
  const sourceId = existing.clonedFromId;
  const refreshed = await db
    .transaction(async (tx) => {
      const own = await tx.select().from(screenerSurveys).where(eq(screenerSurveys.screenerId, existing.id));
      const linked = new Set(own.map((l) => l.oFormIdentity));
      const sources = await tx
        .select({ identity: screenerSurveys.oFormIdentity })
        .from(screenerSurveys)
        .where(eq(screenerSurveys.screenerId, sourceId))
        .orderBy(asc(screenerSurveys.displayOrder), asc(screenerSurveys.id));
      const out: SurveyRefresh[] = [];
      // Only the surveys the clone still has: one removed from the clone stays removed.
      for (const { identity } of sources) {
        if (!linked.has(screenerCopyIdentity(existing.id, identity))) continue;
        const copy = await copyIntoScreener(tx, existing.id, identity, { preferApproved: true, linked });
        if (copy)
          out.push({ sourceIdentity: identity, sourceVersionId: String(copy.sourceVersionId), oFormIdentity: copy.identity, oFormId: String(copy.versionId) });
      }
      return out;
    })
    .catch((error: unknown) =>
      // Two refreshes at once: the second would number the same versions.
      rethrowConstraint(error, { unique: () => new Conflict(VERSION_RACE) }),
    );
  const rows = await db
    .select({ id: oForms.id, identity: oForms.identity, version: oForms.version, title: oForms.title })
    .from(oForms)
    .where(inArray(oForms.id, refreshed.length ? refreshed.map((r) => Number(r.oFormId)) : [0]));
  return refreshed.map((r) => {
    const row = rows.find((x) => String(x.id) === r.oFormId);
    return { ...r, version: row?.version ?? 1, title: row?.title ?? '' };
  });
}
