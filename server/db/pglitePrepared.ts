/**
 * Named prepared statements on PGlite. drizzle's PGlite driver ignores a prepared query's name
 * and sends every call through `PGlite.query`: six protocol exchanges with the WebAssembly
 * backend (parse, describe, bind, describe, execute, sync), each parsing, analysing and planning
 * the statement again. For the participant path's large CTE statements that was most of the
 * server's CPU (a page save 5–7 ms of CPU, against 2–3 ms prepared). Here a query drizzle
 * prepared with a name (`.prepare('…')`, see prepared.ts) is parsed once into a named statement
 * of PGlite's one backend, and each call is bind, describe, execute and sync in one exchange —
 * what node-postgres does on PostgreSQL with the same name.
 *
 * Queries without a name, and every query inside a transaction (drizzle gives a transaction a
 * session of its own), keep PGlite's own path.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

interface Statement {
  /** The backend's name for it: unique per text, whatever name drizzle was given. */
  name: string;
  text: string;
  paramTypes: number[];
}

/** PGlite's internals this relies on: the locks its own `query` takes, and its type serializers. */
interface PGliteInternals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
  syncToFs(): Promise<void>;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Throws the backend's error among `messages`, shaped as PGlite's `query` throws it. */
function throwError(messages: { name: string }[], text: string, params: unknown[], options: QueryOptions | undefined) {
  const error = messages.find((m) => m.name === 'error') as (Error & { query?: string; params?: unknown[]; queryOptions?: unknown }) | undefined;
  if (!error) return;
  error.query = text;
  error.params = params;
  error.queryOptions = options;
  throw error;
}

/** A PGlite client's named statements: `query` runs `text` as the named statement `name`. */
export function pgliteNamedStatements(client: PGlite) {
  const pg = client as unknown as PGlite & PGliteInternals;
  const byName = new Map<string, Statement>();
  let made = 0;
  // parseResults copies PGlite's parsers (hundreds of types, array types included) and the
  // query's own into a new object on every call — a tenth of the server's CPU on the
  // participant path. drizzle passes one options object per prepared query: merged once.
  // (PGlite replaces its parsers object when it learns new array types: merged again then.)
  const merged = new WeakMap<object, { base: PGliteInternals['parsers']; parsers: PGliteInternals['parsers'] }>();
  const parsersFor = (options: QueryOptions | undefined) => {
    if (!options?.parsers) return pg.parsers;
    let entry = merged.get(options.parsers);
    if (entry?.base !== pg.parsers)
      merged.set(options.parsers, (entry = { base: pg.parsers, parsers: { ...pg.parsers, ...(options.parsers as PGliteInternals['parsers']) } }));
    return entry.parsers;
  };

  async function statement(name: string, text: string): Promise<Statement> {
    const known = byName.get(name);
    if (known?.text === text) return known;
    // One drizzle name reused for another text (another database handle's build): a new backend name.
    const fresh: Statement = { name: `pglite_prepared_${++made}`, text, paramTypes: [] };
    const { messages } = await pg.execProtocol(
      concat([protocol.serialize.parse({ name: fresh.name, text }), protocol.serialize.describe({ type: 'S', name: fresh.name }), protocol.serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
    throwError(messages, text, [], undefined);
    fresh.paramTypes = parse.parseDescribeStatementResults(messages);
    byName.set(name, fresh);
    return fresh;
  }

  return {
    query<T>(name: string, text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
      // The same locks as PGlite's own `query`: after any transaction in progress, one statement at a time.
      return pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const st = await statement(name, text);
          const values = params.map((value, i) => {
            if (value === null || value === undefined) return null;
            const type = st.paramTypes[i];
            const serialize = (type !== undefined && (options?.serializers?.[type] ?? pg.serializers[type])) || null;
            return serialize ? serialize(value) : String(value);
          });
          const { messages } = await pg.execProtocol(
            concat([
              protocol.serialize.bind({ statement: st.name, values }),
              protocol.serialize.describe({ type: 'P' }),
              protocol.serialize.execute({}),
              protocol.serialize.sync(),
            ]),
            { syncToFs: false, throwOnError: false },
          );
          throwError(messages, text, params, options);
          // As PGlite's `query` does after a statement outside a transaction (the file system's flush, if it has one).
          await pg.syncToFs();
          return parse.parseResults(messages, parsersFor(options), options?.rowMode ? { rowMode: options.rowMode } : undefined)[0] as Results<T>;
        }),
      );
    },
  };
}

/**
 * Makes drizzle's PGlite session run its named prepared queries as named statements
 * (pgliteNamedStatements). drizzle builds a prepared query through `session.prepareQuery` and
 * calls `client.query(text, params, options)` on the client it was given: a named one gets a
 * client that runs it by name.
 */
export function prepareNamedOnPglite(db: object, client: PGlite): void {
  const named = pgliteNamedStatements(client);
  const session = (db as { session?: { prepareQuery?: (...args: unknown[]) => unknown } }).session;
  const prepareQuery = session?.prepareQuery;
  if (!session || typeof prepareQuery !== 'function') throw new Error('drizzle PGlite session without prepareQuery');
  session.prepareQuery = function (this: unknown, ...args: unknown[]) {
    const prepared = prepareQuery.apply(session, args) as { client?: unknown };
    // prepareQuery(query, fields, name, …): drizzle passes the name given to `.prepare(name)`.
    const name = args[2];
    if (typeof name === 'string' && name !== '' && prepared.client === client) {
      prepared.client = { query: (text: string, params: unknown[], options?: QueryOptions) => named.query(name, text, params, options) };
    }
    return prepared;
  };
}
