/**
 * `npm run dev`: the API server restarting on change (tsx watch) and Vite's dev server for the
 * admin on :5173, proxying /api to it. Stops both on Ctrl-C.
 */
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: process.env }),
  spawn('npx', ['vite', 'build', '--watch', '--config', 'vite.config.widget.ts'], { stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'vite.config.admin.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
