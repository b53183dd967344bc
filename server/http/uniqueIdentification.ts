import { eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Conn } from '../db/open';
import { Conflict } from '../errors';
import { textParam } from './params';
import { valueTaken } from './sql';

/** Sponsors' and engagements' identifications are unique: what a save that repeats one answers. */
export const IDENTIFICATION_TAKEN = 'This identification is already in use.';

/** The refusal of a save that repeats an identification: found before the write, or by the unique index. */
export const identificationTaken = () => new Conflict(IDENTIFICATION_TAKEN, '/data/attributes/identification');

/** Refuses an identification that another record of `column`'s table (other than `exceptId`) already uses. */
export async function assertIdentificationFree(db: Conn, column: PgColumn, id: PgColumn, identification: string | undefined, exceptId?: number) {
  if (identification !== undefined && (await valueTaken(db, column, id, identification, exceptId))) throw identificationTaken();
}

/** The `uniqueIdentification` list filter's parameter (identificationOrScope reads it). */
export const uniqueIdentificationParam = textParam(
  'An identification to check is free: the records that already use it (a User outside their sponsors sees only the identification).',
);

/**
 * The `uniqueIdentification` list filter (checked before a save): identifications are unique
 * across every record, so the check looks at all of them — but a `User` is shown only the
 * identification of matches outside their sponsors, never the record. Without the filter the
 * list keeps its usual scope. `sponsorScoped`: the user sees only some sponsors' records.
 */
export function identificationOrScope(
  sponsorScoped: boolean,
  uniqueIdentification: string | undefined,
  column: AnyColumn,
  scope: SQL | undefined,
  fields: Set<string> | null,
): { condition: SQL | undefined; fields: Set<string> | null } {
  if (uniqueIdentification === undefined) return { condition: scope, fields };
  return {
    condition: eq(column, uniqueIdentification.trim()),
    fields: sponsorScoped ? new Set(['identification']) : fields,
  };
}
