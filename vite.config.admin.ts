import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { bundleBudgets } from './bundle-budgets.ts';

// The admin SPA: React 19 with Vite's own JSX transform (no plugin needed for a production build).
export default defineConfig({
  root: fileURLToPath(new URL('./admin', import.meta.url)),
  base: '/',
  // Copied as they are: the favicon, which the server's own pages link to as well.
  publicDir: fileURLToPath(new URL('./admin/public', import.meta.url)),
  plugins: [bundleBudgets('admin')],
  // tsconfig.json's paths, for the bundler.
  resolve: { alias: { '@core': fileURLToPath(new URL('./core', import.meta.url)) } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/admin', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      // React libraries mark modules 'use client' for server components; meaningless in an SPA.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/widget.js': 'http://localhost:3000', '/jwt': 'http://localhost:3000' },
  },
});
