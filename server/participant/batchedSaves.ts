/**
 * Several participants' page saves in one statement: under load the participant path's cost was
 * the round trip and commit of each save (a third of the server's time went to socket writes to
 * PostgreSQL), so the saves that arrive together are written together (server/db/batchedWrites.ts)
 * by ./entries.ts savePages — each save still checked on its own before (its answers validated,
 * sealed in JS), and answered with its own result after. A batch holds at most one save a
 * submission (batchedWrites keeps two saves of one run apart).
 */
import { batchedWritesPerDb } from '../db/batchedWrites';
import { savePage, savePages, type PageSave, type SaveResult } from './entries';

/** Saves a batch at most: bounds the statement's parameter and its locks. */
const MAX_BATCH = 32;
/**
 * Batches in flight at once: two, so the database works on one while the next gathers (and both
 * cores serve on PostgreSQL); PGlite runs one statement at a time whatever this says.
 */
const MAX_IN_FLIGHT = 2;

/**
 * A page's save, written with the others that arrive with it (savePages), or alone
 * (savePage) when none does or their batch failed; answered once it is committed.
 */
export const savePageWithOthers = batchedWritesPerDb<PageSave, SaveResult>((db) => ({
  keyOf: (s) => s.submissionId,
  maxBatch: MAX_BATCH,
  maxInFlight: MAX_IN_FLIGHT,
  one: (s) => savePage(db, s),
  many: (saves) => savePages(db, saves),
}));
