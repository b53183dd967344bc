/**
 * A bounded load: `concurrency` simulated clients, each repeating one scenario (one or more
 * requests) against 127.0.0.1 until `seconds` have passed. Closed loop — a client waits for
 * its answer before its next request — so an overloaded server shows as a lower rate and
 * longer latencies, never as an unbounded queue in the generator.
 */
import http from 'node:http';
import zlib from 'node:zlib';
export interface LoadResult {
  /** Requests answered within the time (each `timed` call counts one). */
  requests: number;
  /** Scenarios completed. */
  iterations: number;
  /** Requests that threw or answered an unexpected status (the scenario decides). */
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

export type Timed = <T>(request: () => Promise<T>) => Promise<T>;

export async function runLoad(options: {
  concurrency: number;
  seconds: number;
  /** One scenario of client `client`; wrap each request in `timed` to count and time it. */
  scenario: (client: number, timed: Timed) => Promise<void>;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let iterations = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const timed: Timed = async (request) => {
    const t = performance.now();
    const result = await request();
    if (performance.now() <= deadline) latencies.push(performance.now() - t);
    return result;
  };
  const client = async (n: number) => {
    while (performance.now() < deadline) {
      try {
        await options.scenario(n, timed);
        if (performance.now() <= deadline) iterations++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, n) => client(n)));
  const seconds = options.seconds;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, iterations, errors, seconds, requestsPerSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}

/** What a scenario reads of an answer. */
export interface LoadAnswer {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/**
 * A keep-alive node:http client for scenarios against `baseUrl`, sending what Chromium sends
 * (Accept-Encoding). Not fetch: undici's fetch spends about 2.5 times the CPU per request, and
 * on a shared machine the generator's CPU is taken from the server being measured.
 */
export function httpClient(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return {
    request: (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<LoadAnswer> =>
      new Promise((resolve, reject) => {
        const body = options.body === undefined ? undefined : JSON.stringify(options.body);
        const headers: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br', 'Content-Type': 'application/vnd.api+json', ...options.headers };
        if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
        const req = http.request({ hostname, port, method, path, agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const encoding = res.headers['content-encoding'];
            const text = (encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw).toString('utf8');
            resolve({
              status: res.statusCode ?? 0,
              headers: {
                get: (name) => {
                  const v = res.headers[name.toLowerCase()];
                  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
                },
              },
              json: async () => JSON.parse(text) as unknown,
              text: async () => text,
            });
          });
        });
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}
