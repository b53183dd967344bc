import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { widgetJsx } from './vite.config.widget.ts';

// One project per part. The server suite runs on PGlite always and once more on PostgreSQL
// when TEST_DATABASE_URL is set; tests pick the database from TEST_DB_KIND.
const serverProject = (kind: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${kind}`,
    include: ['tests/server/**/*.test.ts', 'tests/security/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB_KIND: kind },
    ...(kind === 'pglite' ? { globalSetup: ['tests/server/pglite-template.ts'] } : {}),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // tsconfig.json's paths, for every project (each extends this config).
  resolve: { alias: { '@core': fileURLToPath(new URL('./core', import.meta.url)) } },
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on CI's 2 cores, while
    // most of a test's time is spent waiting on a database, a server process or Chromium.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'core', include: ['tests/core/**/*.test.ts'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      {
        extends: true,
        oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
        test: {
          name: 'admin',
          include: ['tests/admin/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/admin/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // As the widget's build compiles its JSX, so the components tested are the ones shipped.
        oxc: widgetJsx.oxc,
        plugins: [widgetJsx.plugin()],
        test: { name: 'widget', include: ['tests/widget/**/*.test.{ts,tsx}'], environment: 'happy-dom', setupFiles: ['tests/widget/setup.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // A browser, a server process and the page's own requests under a loaded CI machine: a
          // poll's default second is shorter than a page's round trip there.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
