/**
 * The machine's PostgreSQL for e2e tests that need one or run faster on one: TEST_DATABASE_URL,
 * else the local default. CI has it; a machine without it skips what truly needs it.
 */
import pg from 'pg';

export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function postgresReachable(url = TEST_POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
