/**
 * `npm run audit:verify` as an operator runs it: passes on an untouched database, and fails
 * naming the row after one is changed with SQL behind the append-only trigger.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { prepareDataDir, tempDataDir } from './server';
import { recordAudit } from '../../server/audit/trail';
import { auditEvents } from '../../server/db/schema';

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
    try {
      await prepareDataDir(dataDir, async (db) => {
        for (const name of ['one', 'two', 'three']) {
          await recordAudit(db, { occurredAt: new Date(), actor: null, clientAddress: null, entity: 'sponsors', entityId: name, action: 'create', changes: { name: { old: null, new: name } } });
        }
        const rows = await db.select({ id: auditEvents.id }).from(auditEvents).orderBy(auditEvents.id);
        secondId = rows[1]!.id;
      });
      const clean = verify(dataDir);
      expect(clean.status).toBe(0);
      expect(clean.stdout).toContain('3 events, chain intact');

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
});
