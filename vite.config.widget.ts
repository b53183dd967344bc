import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { FRAME_MODULE_PREFIX, bundleBudgets } from './bundle-budgets.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const MODULE_DIR = 'widget';

/**
 * widget.js, the classic script partners' snippets name (widget/loader.ts): built on its own as
 * a small IIFE once the module's hashed file name is known, and added to this build's output.
 * With it the frame builder (widget/frame.ts), a module of its own that only a framed channel's
 * snippet imports (FRAME_MODULE_PREFIX; bundle-budgets.ts measures it with widget.js).
 */
function widgetLoader(): Plugin {
  return {
    name: 'widget-loader',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry) this.error('widget build: no entry module');
      const { build } = await import('vite');
      const buildOne = async (file: string, format: 'iife' | 'es', define: Record<string, string> = {}) => {
        const built = await build({
          configFile: false,
          logLevel: 'warn',
          publicDir: false,
          define,
          // Minified fully in ES format too (library ES output is otherwise only whitespace-minified).
          build: {
            write: false,
            target: 'es2020',
            minify: true,
            lib: { entry: here(file), formats: [format], name: 'TrialWidgetLoader', fileName: () => 'out.js' },
            rollupOptions: { output: { minify: true } },
          },
        });
        const output = (Array.isArray(built) ? built : [built]).flatMap((o) => ('output' in o ? o.output : []));
        const code = output.find((c) => c.type === 'chunk')?.code;
        if (!code) this.error(`widget build: ${file} did not build`);
        return code;
      };
      const frame = await buildOne('./widget/frame.ts', 'es');
      const frameFile = `${FRAME_MODULE_PREFIX}${createHash('sha256').update(frame).digest('base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName: frameFile, source: frame });
      const code = await buildOne('./widget/loaderEntry.ts', 'iife', {
        __WIDGET_MODULE__: JSON.stringify(entry.fileName),
        __FRAME_MODULE__: JSON.stringify(frameFile),
      });
      this.emitFile({ type: 'asset', fileName: 'widget.js', source: code });
    },
  };
}

/**
 * The widget's JSX as Preact's `h(type, props, ...children)` calls (the classic runtime) rather
 * than the automatic runtime's `jsx(type, { ...props, children: [...] })`: shorter calls, and no
 * second vnode factory beside the `h` the embed already needs (about 220 B gzipped over a whole
 * run). `_h`, not `h`: App.tsx and the steps have a heading helper of their own named `h`.
 * Imported into each .tsx ahead of the TypeScript transform (Vite's jsxInject would add it to
 * every module, core's too). The widget's component tests compile the same way (vitest.config.ts).
 */
export const widgetJsx = {
  // Not the development transform either (in tests): its __self and __source props would reach the DOM as attributes.
  oxc: { jsx: { runtime: 'classic' as const, pragma: '_h', development: false } },
  plugin: (): Plugin => ({
    name: 'widget-classic-jsx',
    enforce: 'pre',
    transform: { filter: { id: /\.tsx$/ }, handler: (code) => `import { h as _h } from 'preact';${code}` },
  }),
};

/**
 * Properties only the widget's own code names, never as a string and never on the wire, in
 * storage or in what the admin's preview passes to mount(): the runner's shared context
 * (core/survey/runner.ts RunContext, read in the steps' chunk too), the runner's and the
 * controller's options that mount() does not take, the controller's members, the caller's
 * channel, App's count, heading ref, sent errors and unsubscribe, the controller's page timing and
 * the steps' props. Terser cannot know a property is private; each name is otherwise spelt out in
 * each chunk (about 150 B gzipped over a whole run). Names the DOM also has (`channel`, `show`,
 * `heading`…) are renamed too (`builtins` below): the list names only the widget's own, so none
 * of them is ever read from a DOM object. A one-letter property that only the steps' chunk
 * names (the consent box's is `box`, not `k`) could be taken: the new names are chosen while the
 * module chunk is minified, without looking at the steps' chunk.
 */
const PRIVATE_PROPERTIES =
  /^(?:answersByPage|pagesSeen|finishedPages|attempt|shown|hasErrors|onAnswer|backLabel|ctl|busy|runner|dead|abandonResume|chooseLanguage|onTransition|onStyles|channel|steps|later|offer|begin|confirming|saved|show|end|heading|sent|off|box)$/;

/**
 * Terser over the minified chunks: a second pass after Rolldown's own minifier (Oxc) finds
 * another ~150 B gzipped over a whole run (inlining and folding Oxc leaves), where Terser alone,
 * in place of Oxc, would leave the files larger. Default (safe) compress options only, and
 * PRIVATE_PROPERTIES renamed with one name cache over every chunk, so both chunks agree. Here,
 * not in renderChunk, because the chunks are minified after that hook.
 */
function terserPass(): Plugin {
  return {
    name: 'widget-terser-pass',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const { minify } = await import('terser');
      const nameCache = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const out = await minify(chunk.code, {
          module: true,
          ecma: 2020,
          compress: { passes: 2 },
          mangle: { properties: { regex: PRIVATE_PROPERTIES, builtins: true } },
          nameCache,
          format: { comments: false },
        });
        if (out.code === undefined) this.error(`widget build: terser gave nothing for ${chunk.fileName}`);
        chunk.code = out.code;
      }
    },
  };
}

// The participant widget: widget.js (the loader) and Preact ES modules under widget/, the
// steps after the survey in a chunk of their own (bundle-budgets.ts measures both figures).
export default defineConfig({
  publicDir: false,
  plugins: [widgetJsx.plugin(), widgetLoader(), terserPass(), bundleBudgets('widget')],
  oxc: widgetJsx.oxc,
  resolve: {
    // '@core': tsconfig.json's paths, for the bundler.
    alias: { '@core': here('./core'), react: 'preact/compat', 'react-dom': 'preact/compat' },
  },
  build: {
    outDir: here('./dist/widget'),
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    // Library mode: no preload helper around the dynamic import (the steps' chunk has no CSS to
    // preload). Library ES output is only whitespace-minified by default (to keep annotations for
    // a consumer's bundler); this one ships as it is, so it is minified fully.
    lib: { entry: { embed: here('./widget/embed.ts') }, formats: ['es'] },
    rollupOptions: {
      preserveEntrySignatures: 'allow-extension',
      // Every imported constant written in place (the wire's resource types, the entry type…):
      // the steps' chunk otherwise imports each from the module chunk by a binding of its own,
      // and those import and export lists compress badly (about 100 B gzipped over a whole run).
      optimization: { inlineConst: { mode: 'all', pass: 1 } },
      output: {
        codeSplitting: { groups: [{ name: 'embed', tags: ['$initial'] }] },
        minify: true,
        comments: false,
        entryFileNames: `${MODULE_DIR}/[name]-[hash].js`,
        // widget/restOfRun.ts keeps the chunk name it was first shipped under: the name is in
        // widget.js's import, so a longer one would cost bytes on every partner's page.
        chunkFileNames: (chunk) => `${MODULE_DIR}/${chunk.name === 'restOfRun' ? 'later' : '[name]'}-[hash].js`,
      },
    },
  },
});
