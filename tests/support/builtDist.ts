import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for `npm run build`'s output in a new temporary folder (the server only reads files
 * from DIST_DIR): the admin's page and assets folder and the widget's script, with `files` (paths
 * below the folder) written over or beside them. Answers the folder; the caller removes it.
 */
export function builtDist(files: Record<string, string | Buffer> = {}): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
  fs.mkdirSync(path.join(dist, 'admin', 'assets'), { recursive: true });
  fs.mkdirSync(path.join(dist, 'widget'), { recursive: true });
  const written = { 'admin/index.html': '<!doctype html><div id="root"></div>', 'widget/widget.js': '(()=>{})()', ...files };
  for (const [name, content] of Object.entries(written)) fs.writeFileSync(path.join(dist, name), content);
  return dist;
}
