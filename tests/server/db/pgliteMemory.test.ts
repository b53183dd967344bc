import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/open';
import { rowsOf } from '../../../server/db/rows';

const sharedBuffers = async (database: Database) => rowsOf(await database.db.execute(sql`show shared_buffers`))[0]?.shared_buffers;

describe('the embedded database', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("keeps 32 MB of shared buffers in the process by default, not PostgreSQL's 128 MB", async () => {
    database = await openDatabase({ databaseUrl: null, dataDir: null });
    expect(await sharedBuffers(database)).toBe('32MB');
  });

  it('keeps what PGLITE_SHARED_BUFFERS_MB asks for', async () => {
    database = await openDatabase({ databaseUrl: null, dataDir: null, pgliteSharedBuffersMb: 8 });
    expect(await sharedBuffers(database)).toBe('8MB');
  });
});
