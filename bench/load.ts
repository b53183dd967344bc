/**
 * A bounded load: `concurrency` simulated clients, each repeating one scenario (one or more
 * requests) against 127.0.0.1 until `seconds` have passed. Closed loop — a client waits for
 * its answer before its next request — so an overloaded server shows as a lower rate and
 * longer latencies, never as an unbounded queue in the generator.
 */
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
