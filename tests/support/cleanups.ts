/** Undoing what a file's tests started: servers, receivers and folders, even when a test fails halfway. */
import fs from 'node:fs';
import { afterAll, afterEach } from 'vitest';

/**
 * A test pushes the step that undoes what it started; the steps run last-first after the file's
 * tests, and after each test too where `eachTest` says so.
 */
export function useCleanups({ eachTest = false }: { eachTest?: boolean } = {}) {
  const cleanups: (() => Promise<void>)[] = [];
  const runAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  if (eachTest) afterEach(runAll);
  afterAll(runAll);
  return {
    push(cleanup: () => Promise<void>): void {
      cleanups.push(cleanup);
    },
    /** Removes the folder `dir` and all below it. */
    removeDir(dir: string): void {
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    },
  };
}
