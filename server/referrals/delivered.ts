/**
 * What "delivered" means, in one place: the sponsors list's referral figures, the referral
 * counts and the funnel's `delivered` stage all count with `isDeliveredReferral`. A referral is
 * delivered once its record system accepted it (for an engagement without one: once recorded);
 * a referral stored without a contact (made before contacts existed) has nothing to deliver and
 * counts as delivered. The record-system area writes the deliveries (rms/outbox.ts); a referral's
 * figures only read them, so the definition lives with the referrals.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** SQL: whether the referral whose contact id is `contactId` (a referrals.contact_id column or expression) counts as delivered. */
export const isDeliveredReferral = (contactId: AnyColumn | SQL): SQL =>
  sql`(${contactId} is null or exists (select 1 from rms_deliveries dl where dl.contact_id = ${contactId} and dl.status = 'delivered'))`;

/**
 * The same definition as a join, for a query that counts a few contacts among many: the planner
 * answers `isDeliveredReferral`'s `exists` in a count by hashing every delivered row of the table
 * (once for each stage that tests it), which for the ten buckets a funnel read recounts cost more
 * than the recount itself; a join reads the few contacts' deliveries by their key instead.
 * `deliveredJoin(alias, contactId)` left-joins the contact's delivery when it is delivered (at
 * most one row: contact_id is rms_deliveries' key, so the join adds no rows), and
 * `isDeliveredJoined(alias, contactId)` is then `isDeliveredReferral(contactId)`.
 */
export const deliveredJoin = (alias: string, contactId: SQL): SQL =>
  sql`left join rms_deliveries ${sql.identifier(alias)} on ${sql.identifier(alias)}.contact_id = ${contactId} and ${sql.identifier(alias)}.status = 'delivered'`;

export const isDeliveredJoined = (alias: string, contactId: SQL): SQL => sql`(${contactId} is null or ${sql.identifier(alias)}.contact_id is not null)`;
