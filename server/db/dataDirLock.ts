/**
 * The embedded database serves one process: a second one opening the same directory (a tool run
 * beside the server, a second server) would write over it. Whoever opens it holds a lock file
 * with their process id; a lock whose process is gone is stale and taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'db.lock';

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The database in ${dataDir} is in use by process ${pid} (a running server?): stop it first, the embedded database serves one process at a time.`);
    this.name = 'DataDirInUse';
  }
}

/** Whether a process is running (a zombie, dead but not yet reaped, is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

const holder = (file: string): number | null => {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

/** Takes the data directory's lock, or throws DataDirInUse; answers the function that gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  // Written whole under another name and linked into place: a lock file is never seen half written.
  const draft = `${file}.${process.pid}`;
  fs.writeFileSync(draft, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(draft, file);
        return () => {
          if (holder(file) === process.pid) fs.rmSync(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const pid = holder(file);
      // Our own id: a lock left by an earlier process that had it (a container restarted as pid 1).
      if (pid !== null && pid !== process.pid && alive(pid)) throw new DataDirInUse(dataDir, pid);
      fs.rmSync(file, { force: true });
    }
    throw new Error(`Could not take the lock ${file}: another process keeps taking it.`);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
