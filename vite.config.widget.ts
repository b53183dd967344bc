import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { bundleBudgets } from './bundle-budgets.ts';

// The participant widget: Preact in one self-contained IIFE file, `dist/widget/widget.js`.
export default defineConfig({
  publicDir: false,
  plugins: [bundleBudgets('widget')],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/widget', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('./widget/embed.ts', import.meta.url)),
      name: 'TrialWidget',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
});
