import { eq } from 'drizzle-orm';
import type { Conn } from '../../server/db/open';
import { oFormContainerEntries, oFormFieldEntries } from '../../server/db/schema';

/** The answers stored for a submission (its field entries, under any of its entries): their ids and questions. */
export function storedAnswersOf(db: Conn, submissionId: string | number) {
  return db
    .select({ id: oFormFieldEntries.id, fieldId: oFormFieldEntries.fieldId })
    .from(oFormFieldEntries)
    .innerJoin(oFormContainerEntries, eq(oFormContainerEntries.id, oFormFieldEntries.containerEntryId))
    .where(eq(oFormContainerEntries.submissionId, Number(submissionId)));
}
