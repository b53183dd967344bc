/**
 * A throwaway PostgreSQL database on the server at `baseUrl`, for test and benchmark runs that
 * must never see each other's rows: created with a random name, dropped by `drop()`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function run(connectionString: string, statement: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await run(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(baseUrl, `drop database if exists ${name} with (force)`) };
}
