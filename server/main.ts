/**
 * The server process: read config, (build bundles when asked), open the database, migrate,
 * seed, listen. The only module with side effects.
 */
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { seed } from './db/seed';
import { createApp } from './app';
import { createLogger } from './http/log';
import { resolveJwtSecret } from './auth/secret';
import { ensureBuilt } from './bundles';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  if (process.argv.includes('--build-if-stale')) await ensureBuilt(process.cwd(), (msg) => log.info(msg));

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const seeded = await seed(database.db, {
    adminUsername: config.adminUsername,
    adminPassword: config.adminPassword,
    demoData: config.demoData,
  });
  if (seeded.generatedAdminPassword) {
    // Printed once, on the start that created the admin; it is not stored anywhere in clear.
    console.log(`\n  First start: created user "${config.adminUsername}" with password: ${seeded.generatedAdminPassword}\n`);
  }
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const app = createApp({ db: database.db, config, jwtSecret, log });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info('listening', { url: `http://localhost:${info.port}`, database: database.kind });
    console.log(`Serving on http://localhost:${info.port} (database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'})`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    server.close(async () => {
      await database.close();
      process.exit(0);
    });
    // Keep-alive connections must not hold the process forever.
    setTimeout(async () => {
      await database.close().catch(() => undefined);
      process.exit(0);
    }, 5000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
