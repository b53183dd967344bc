/**
 * Approving a survey version (mark_approved, SPEC section 4): once, and only with every
 * enabled language's translations present. The identity's previously approved version stops
 * being the approved one; from then on the version never changes (./versions.ts lockEditable).
 */
import { and, eq, sql } from 'drizzle-orm';
import { ALREADY_APPROVED, VERSION_RACE } from '@core/model/surveyDoc';
import type { Db } from '../db/open';
import { oForms } from '../db/schema';
import { Conflict, NotFound } from '../errors';
import { rethrowConstraint } from '../http/sql';
import { findMissingTranslations, missingTranslationsProblem } from './translations';

export async function approveVersion(db: Db, version: { id: number; identity: string }, approvedBy: number): Promise<void> {
  await db
    .transaction(async (tx) => {
      const [row] = await tx.select({ approvedAt: oForms.approvedAt }).from(oForms).where(eq(oForms.id, version.id)).for('update');
      if (!row) throw new NotFound('survey version');
      if (row.approvedAt !== null) throw new Conflict(ALREADY_APPROVED);
      // Read under the lock: no edit can slip in between the check and the approval.
      const missing = await findMissingTranslations(tx, { id: version.id });
      if (missing.length) throw missingTranslationsProblem(missing);
      await tx
        .update(oForms)
        .set({ isApproved: false })
        .where(and(eq(oForms.identity, version.identity), eq(oForms.isApproved, true)));
      await tx.update(oForms).set({ isApproved: true, approvedAt: sql`now()`, approvedBy, modified: sql`now()` }).where(eq(oForms.id, version.id));
    })
    .catch((error: unknown) =>
      // Two versions of one identity approved at the same moment: the later one waits its turn.
      rethrowConstraint(error, { unique: () => new Conflict(VERSION_RACE) }),
    );
}
