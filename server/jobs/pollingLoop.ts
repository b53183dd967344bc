/**
 * One server process's loop over durable work kept in the database (an outbox): `drain` does
 * what is due, and runs once more when woken meanwhile; then the loop sleeps as long as
 * `nextWaitMs` says (the next item's due time, at most the poll interval). A failed round is
 * logged and tried again after the poll interval. Knows no area: the record-system deliveries
 * and the messages each start one.
 */
import type { Logger } from '../log';

export interface PollingLoop {
  /** Drains now (or once more after the drain in progress). */
  wake(): void;
  /** No further rounds; resolves when the one in progress has finished. */
  stop(): Promise<void>;
}

export interface PollingLoopOptions {
  /** Names the loop in the log line of a failed round. */
  name: string;
  drain: () => Promise<void>;
  nextWaitMs: () => Promise<number>;
  pollMs: number;
  log: Logger;
  /** Told of each round, so a caller can wait for work in flight (tests, shutdown). */
  track?: (round: Promise<unknown>) => void;
}

export function startPollingLoop({ name, drain, nextWaitMs, pollMs, log, track }: PollingLoopOptions): PollingLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, ms));
    timer.unref();
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await drain();
        } while (again && !stopped);
        schedule(await nextWaitMs());
      } catch (error) {
        log.error(`${name} loop failed`, { error: error instanceof Error ? error.message : String(error) });
        schedule(pollMs);
      }
    })();
    track?.(running);
    void running.finally(() => {
      running = null;
    });
  }

  schedule(0);
  return {
    wake: () => run(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
