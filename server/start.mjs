/**
 * `npm start`'s entry: runs the server compiled into dist/server/main.mjs (server/build-server.mjs),
 * compiling it first (esbuild, under a second) when it is missing or older than its sources, so
 * what runs is always the checkout's code. Not server/main.ts through tsx's loader: that loader
 * keeps a thread with a V8 heap of its own and every module's inline source map in the server's
 * heap — under the participants load the server process held about 80 MB more on PostgreSQL
 * (bench/README.md, Start-up and memory).
 *
 * Arguments pass through (`--build-if-stale` builds the admin and widget bundles, as before).
 * With WORKERS=N the primary compiles; the workers, forked on this file, only run the result.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer, serverBuildIsStale, serverBuildOf } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (cluster.isPrimary && serverBuildIsStale(root)) await buildServer(root);
await import(pathToFileURL(serverBuildOf(root).output).href);
