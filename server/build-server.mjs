/**
 * The server compiled into one JavaScript file, dist/server/main.mjs, for `npm start`
 * (server/start.mjs): plain JavaScript, so that node runs it without a loader.
 *
 * Packages stay in node_modules, imported as they are; the app's own modules (server/, core/) are
 * bundled, each module's `import.meta.url` still naming its source file, so what it resolves from
 * there (migrations, package.json, vendored files) is what it resolves under tsx. The build records
 * the modules it read: the file is stale when one of them, or a file every build reads, is newer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Files every build depends on besides the modules it bundles. */
const CONFIG = ['package.json', 'tsconfig.json', 'server/build-server.mjs'];

export const serverBuildOf = (root) => ({
  output: path.join(root, 'dist', 'server', 'main.mjs'),
  /** What the last build read (esbuild's inputs) and the checkout it was built in. */
  stamp: path.join(root, 'dist', 'server', 'inputs.json'),
});

export function serverBuildIsStale(root) {
  const { output, stamp } = serverBuildOf(root);
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    if (!Array.isArray(recorded.inputs)) return true;
  } catch {
    return true;
  }
  // Absolute source paths are compiled in (import.meta.url): a moved checkout builds again.
  if (recorded.root !== root || !fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return [...CONFIG, ...recorded.inputs].some((file) => {
    try {
      return fs.statSync(path.join(root, file)).mtimeMs > built;
    } catch {
      return true;
    }
  });
}

export async function buildServer(root) {
  const { output, stamp } = serverBuildOf(root);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  // Loaded here rather than at the top: a start with a fresh build never pays for it.
  const { default: esbuild } = await import('esbuild');
  const sourceUrls = {
    name: 'import.meta.url of the source',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.split(path.sep).includes('node_modules')) return undefined;
        const source = await fs.promises.readFile(args.path, 'utf8');
        return {
          contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
  // Written beside and renamed into place: a process starting meanwhile never reads half a file.
  const temporary = path.join(path.dirname(output), `.main.${process.pid}.mjs`);
  const started = new Date();
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ['server/main.ts'],
      outfile: temporary,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      tsconfig: 'tsconfig.json',
      // Function and class names as written (stack traces, error names): bundling renames clashes.
      keepNames: true,
      // Read only when node runs with --enable-source-maps; stack traces name bundle lines otherwise.
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'warning',
      plugins: [sourceUrls],
    });
    const mapName = `${path.basename(output)}.map`;
    fs.writeFileSync(temporary, fs.readFileSync(temporary, 'utf8').replace(/(\/\/# sourceMappingURL=)\S+\s*$/, `$1${mapName}\n`));
    // Dated when the build began: a source saved while it ran is newer, so the next start builds again.
    fs.utimesSync(temporary, started, started);
    fs.renameSync(`${temporary}.map`, `${output}.map`);
    fs.renameSync(temporary, output);
    const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.split('/').includes('node_modules'));
    fs.writeFileSync(stamp, JSON.stringify({ root, inputs }));
  } finally {
    fs.rmSync(temporary, { force: true });
    fs.rmSync(`${temporary}.map`, { force: true });
    await esbuild.stop?.();
  }
  return output;
}
