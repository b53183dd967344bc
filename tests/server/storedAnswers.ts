import { eq } from 'drizzle-orm';
import type { Conn } from '../../server/db/open';
import { oFormContainerEntries, oFormFieldEntries } from '../../server/db/schema';
import type { PhiCipher } from '../../server/security/phi';
import { openAnswer } from '../../server/security/sealedAnswer';

/** The answers stored for a submission (its field entries, under any of its entries), as stored: plain or sealed. */
export function storedAnswersOf(db: Conn, submissionId: string | number) {
  return db
    .select({ id: oFormFieldEntries.id, fieldId: oFormFieldEntries.fieldId, value: oFormFieldEntries.fieldValue, sealed: oFormFieldEntries.sealedValue })
    .from(oFormFieldEntries)
    .innerJoin(oFormContainerEntries, eq(oFormContainerEntries.id, oFormFieldEntries.containerEntryId))
    .where(eq(oFormContainerEntries.submissionId, Number(submissionId)));
}

/** The submission's answers as the participant gave them (sealed ones opened). */
export async function givenAnswersOf(db: Conn, phi: PhiCipher, submissionId: string | number) {
  return (await storedAnswersOf(db, submissionId)).map((a) => ({ fieldId: a.fieldId, value: openAnswer(phi, a) }));
}
