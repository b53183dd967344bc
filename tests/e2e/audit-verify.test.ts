/**
 * `npm run audit:verify` as an operator runs it: passes on an untouched database, and fails
 * naming the row after one is changed with SQL behind the append-only trigger. Beside a server
 * running on the same embedded database it refuses in one line and touches nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { prepareDataDir, startServer, tempDataDir } from './server';
import { recordAudit } from '../../server/audit/trail';
import { auditEvents } from '../../server/db/schema';
import { LOCK_FILE } from '../../server/db/dataDirLock';

const root = path.resolve(import.meta.dirname, '../..');
const verify = (dataDir: string) =>
  spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/audit/cli.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });

describe('npm run audit:verify', () => {
  it('passes on an untouched trail and names a row changed with SQL', async () => {
    const dataDir = tempDataDir();
    let secondId = 0;
    let events = 0;
    try {
      await prepareDataDir(dataDir, async (db) => {
        for (const name of ['one', 'two', 'three']) {
          await recordAudit(db, {
            occurredAt: new Date(),
            actor: null,
            clientAddress: null,
            entity: 'sponsors',
            entityId: name,
            action: 'create',
            changes: { name: { old: null, new: name } },
          });
        }
        const rows = await db.select({ id: auditEvents.id }).from(auditEvents).orderBy(auditEvents.id);
        // The demo's own history comes first; these three follow it.
        secondId = rows.at(-2)!.id;
        events = rows.length;
      });
      const clean = verify(dataDir);
      expect(clean.status).toBe(0);
      expect(events).toBeGreaterThanOrEqual(3);
      expect(clean.stdout).toContain(`${events} events, chain intact`);

      await prepareDataDir(dataDir, async (db) => {
        await db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
        await db.execute(sql`update audit_events set entity_id = 'forged' where id = ${secondId}`);
        await db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
      });
      const tampered = verify(dataDir);
      expect(tampered.status).toBe(1);
      expect(tampered.stderr).toContain(`row ${secondId} fails`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses in one line beside a running server, and checks once the server has stopped', async () => {
    const dataDir = tempDataDir();
    const server = await startServer({ dataDir });
    try {
      const lock = path.join(dataDir, LOCK_FILE);
      expect(fs.readFileSync(lock, 'utf8').trim()).toBe(String(server.pid));
      const files = () => fs.readdirSync(path.join(dataDir, 'db'), { recursive: true }).length;
      const before = files();
      const refused = verify(dataDir);
      expect(refused.status).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim().split('\n')).toEqual([
        `audit: not checked. The database in ${dataDir} is in use by process ${server.pid} (a running server?): stop it first, the embedded database serves one process at a time.`,
      ]);
      // The server's lock and database are as they were, and it goes on serving.
      expect(fs.readFileSync(lock, 'utf8').trim()).toBe(String(server.pid));
      expect(files()).toBe(before);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

      await server.stop();
      expect(fs.existsSync(lock)).toBe(false);
      const checked = verify(dataDir);
      expect(checked.status).toBe(0);
      expect(checked.stdout).toMatch(/audit: \d+ events, chain intact/);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes over the lock a killed server left behind', async () => {
    const dataDir = tempDataDir();
    try {
      await prepareDataDir(dataDir, async () => {});
      // The id of a process that has ended: a server killed without its shutdown.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      fs.writeFileSync(path.join(dataDir, LOCK_FILE), `${gone}\n`);
      const checked = verify(dataDir);
      expect(checked.stderr).toBe('');
      expect(checked.status).toBe(0);
      expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
