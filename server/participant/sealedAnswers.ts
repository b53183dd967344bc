/**
 * Sealing the answers stored in clear before answers were sealed at rest (the codec is
 * server/security/sealedAnswer.ts).
 */
import { sql } from 'drizzle-orm';
import { CHOICE_TYPES } from '@core/model/survey';
import type { Db } from '../db/open';
import { oFormFieldEntries, oFormFields } from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { storeAnswer } from '../security/sealedAnswer';

const BATCH = 500;

/**
 * Seals the answers stored in clear that should not be (rows written before answers were
 * sealed), in batches; answers how many. Safe to run from several processes at once: a row is
 * sealed only while it is still in clear.
 */
export async function sealClearAnswers(db: Db, phi: PhiCipher): Promise<number> {
  const choiceTypes = sql.join(
    CHOICE_TYPES.map((t) => sql`${t}`),
    sql`, `,
  );
  let sealed = 0;
  for (;;) {
    const rows = await db
      .select({ id: oFormFieldEntries.id, value: oFormFieldEntries.fieldValue, type: oFormFields.type })
      .from(oFormFieldEntries)
      .innerJoin(oFormFields, sql`${oFormFields.id} = ${oFormFieldEntries.fieldId}`)
      .where(sql`${oFormFieldEntries.sealedValue} is null and ${oFormFieldEntries.fieldValue} is not null and ${oFormFields.type} not in (${choiceTypes})`)
      .orderBy(oFormFieldEntries.id)
      .limit(BATCH);
    if (rows.length === 0) return sealed;
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const stored = storeAnswer(phi, row.type, row.value);
        await tx
          .update(oFormFieldEntries)
          .set({ fieldValue: null, sealedValue: stored.sealed })
          .where(sql`${oFormFieldEntries.id} = ${row.id} and ${oFormFieldEntries.sealedValue} is null`);
      }
    });
    sealed += rows.length;
  }
}
