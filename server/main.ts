/**
 * The server process: read config, (build bundles when asked), open the database, migrate,
 * seed, listen. The only module with side effects.
 *
 * WORKERS=N (N > 1, PostgreSQL only): this process becomes the primary of a node:cluster. It
 * builds, migrates and seeds once, then forks N workers that share the port and only serve;
 * a worker that dies is replaced, sooner when it had been running a while.
 */
import cluster, { type Worker } from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { openConfiguredDatabase } from './db/command';
import type { Database } from './db/open';
import { seed } from './seed';
import { createApp } from './app';
import { createLogger, type Logger } from './log';
import { serveApp } from './http/serve';
import { resolveJwtSecret } from './auth/secret';
import { ensureBuilt } from './bundles';
import { phiCipher, resolvePhiKey } from './security/phi';
import { sealStoredSecrets } from './rms/providers';
import { sealClearAnswers } from './participant/sealedAnswers';
import { startRetentionJob } from './retention';
import { startFunnelRecountJob } from './funnel/recount';
import { deliveryOptionsOf, settleDeliveries, startDeliveryWorker } from './rms/worker';
import { messageOptionsOf, settleMessages, startMessageWorker } from './messages';
import { startStatisticsJob } from './jobs/statistics';

/** Migrations and seeding, once per start of the whole service (not per worker). */
async function prepareDatabase(database: Database, config: Config): Promise<void> {
  const seeded = await database.startupLock(async () => {
    await database.migrate();
    const phi = phiCipher(resolvePhiKey(config.phiKey, config.dataDir), config.phiPreviousKeys);
    // Record-system secrets set by hand, and answers stored before they were sealed, are sealed now.
    await sealStoredSecrets(database.db, phi);
    await sealClearAnswers(database.db, phi);
    return seed(database.db, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
      demoData: config.demoData,
      phi,
    });
  });
  if (seeded.generatedAdminPassword) {
    // Printed once, on the start that created the admin; it is not stored anywhere in clear.
    console.log(`\n  First start: created user "${config.adminUsername}" with password: ${seeded.generatedAdminPassword}\n`);
  }
}

const databaseLabel = (config: Config) => (config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`);

/** One process serving HTTP: the whole server (WORKERS=1) or a cluster worker. */
async function serveHttp(config: Config, log: Logger, options: { prepare: boolean }): Promise<void> {
  const database = await openConfiguredDatabase(config);
  if (options.prepare) await prepareDatabase(database, config);
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  // Resolved at start, so a missing or damaged key stops the start instead of a participant's request.
  const phi = phiCipher(resolvePhiKey(config.phiKey, config.dataDir), config.phiPreviousKeys);
  const deps = { db: database.db, config, jwtSecret, log, phi };
  const app = createApp(deps);
  // Every process attempts the deliveries that are due; each attempt is claimed by one of them.
  const deliveries = startDeliveryWorker(deliveryOptionsOf(deps));
  // Likewise the messages: each is claimed by one process; without SMTP_URL they wait.
  const outbox = startMessageWorker(messageOptionsOf(deps));
  // Every process runs the retention job; its lock lets one delete at a time.
  const retention = startRetentionJob({
    db: database.db,
    clock: () => new Date(),
    days: config.participantRetentionDays,
    leadDays: config.leadRetentionDays,
    log,
  });
  // Every process counts the funnel rollup's days not counted yet, if any; its lock gives each range to one of them.
  const funnelRecount = startFunnelRecountJob({ db: database.db, log });
  // Where autovacuum does not run (PGlite; PostgreSQL with it off), the planner's statistics follow the tables' growth.
  const statistics = await startStatisticsJob(database, log);

  let stopping = false;
  const { server, closeEveryConnection } = serveApp(app, { port: config.port, hostname: config.host }, (info) => {
    log.info('listening', { url: `http://localhost:${info.port}`, database: database.kind, worker: cluster.isWorker ? cluster.worker?.id : undefined });
    if (cluster.isPrimary) console.log(`Serving on http://localhost:${info.port} (database: ${databaseLabel(config)})`);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A kept-alive connection is closed after its answer, so the load balancer sends the next request to another process.
    closeEveryConnection();
    log.info('stopping', { signal, timeoutSeconds: config.shutdownTimeoutSeconds });
    // No new connections; idle kept-alive ones close now; requests in flight are answered.
    server.close(async () => {
      // Record-system attempts under way finish (and write their audits) before the database closes.
      await deliveries.stop();
      await outbox.stop();
      await retention.stop();
      await funnelRecount.stop();
      await statistics.stop();
      await settleDeliveries();
      await settleMessages();
      await database.close();
      log.info('stopped', { signal });
      process.exit(0);
    });
    setTimeout(async () => {
      log.warn('shutdown timeout: closing the requests still in flight', { timeoutSeconds: config.shutdownTimeoutSeconds });
      server.closeAllConnections();
      await database.close().catch(() => undefined);
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** A worker that lived this long was healthy: its death restarts the backoff from zero. */
const HEALTHY_AFTER_MS = 30_000;
const MAX_RESTART_DELAY_MS = 30_000;

async function runPrimary(config: Config, log: Logger): Promise<void> {
  const database = await openConfiguredDatabase(config);
  try {
    await prepareDatabase(database, config);
  } finally {
    await database.close();
  }
  // Made here when missing, so the workers read one file instead of racing to write their own.
  resolveJwtSecret(config.jwtSecret, config.dataDir);
  resolvePhiKey(config.phiKey, config.dataDir);

  let stopping = false;
  let uncleanStop = false;
  let quickDeaths = 0;
  const startedAt = new Map<number, number>();
  const restarts = new Set<NodeJS.Timeout>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  let announced = false;
  const listening = new Set<number>();
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (!announced && listening.size >= config.workers) {
      announced = true;
      console.log(`Serving on http://localhost:${config.port} (database: ${databaseLabel(config)}, ${config.workers} workers)`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (stopping) {
      // A worker cut off by its shutdown timeout makes the whole stop count as unclean.
      if (code !== 0) uncleanStop = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('stopped', { clean: !uncleanStop });
        process.exit(uncleanStop ? 1 : 0);
      }
      return;
    }
    quickDeaths = lived >= HEALTHY_AFTER_MS ? 0 : quickDeaths + 1;
    // A worker that dies on start (bad database, bad code) must not be restarted in a busy loop.
    const delay = quickDeaths <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (quickDeaths - 2));
    log.error('worker exited; starting another', { workerPid: worker.process.pid, code, signal, restartInMs: delay });
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    restarts.add(timer);
  });

  for (let i = 0; i < config.workers; i++) fork();

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping workers', { signal });
    for (const timer of restarts) clearTimeout(timer);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(0);
    // Each worker stops gracefully on its own signal (a terminal's Ctrl-C reaches them too).
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(
      () => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 5) * 1000,
    ).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
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
  if (cluster.isWorker) return serveHttp(config, log, { prepare: false });
  if (process.argv.includes('--build-if-stale')) await ensureBuilt(process.cwd(), (msg) => log.info(msg));
  if (config.workers > 1) return runPrimary(config, log);
  return serveHttp(config, log, { prepare: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
