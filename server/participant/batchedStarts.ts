/**
 * Several participants' starts in one statement, as ./batchedSaves.ts does for page saves: under
 * load each start was a statement, a round trip and a commit of its own, four in five of the
 * statements a run sent. The starts that arrive together are written together
 * (server/db/batchedWrites.ts) by ./entries.ts createSubmissions — each still decided on its own
 * before (its survey, channel and limits) and answered with its own result after, once committed.
 */
import { batchedWritesPerDb } from '../db/batchedWrites';
import { createSubmission, createSubmissions, type CreationResult, type SubmissionCreation } from './entries';

/** Starts a batch at most: bounds the statement's parameter and its locks. */
const MAX_BATCH = 32;
/** Batches in flight at once: the database works on one while the next gathers. */
const MAX_IN_FLIGHT = 2;

/** A start's creation, written with the others that arrive with it, or alone when none does or their batch failed. */
export const createSubmissionWithOthers = batchedWritesPerDb<SubmissionCreation, CreationResult>((db) => ({
  // Each start has a token of its own.
  keyOf: (c) => c.values.tokenHash,
  maxBatch: MAX_BATCH,
  maxInFlight: MAX_IN_FLIGHT,
  one: (creation) => createSubmission(db, creation),
  many: (creations) => createSubmissions(db, creations),
}));
