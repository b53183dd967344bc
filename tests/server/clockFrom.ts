/** The instants a server test names as offsets from a start it states, on the server's clock. */
import type { Harness } from './harness';

export const HOUR = 3_600_000;

/**
 * `at(ms)`: the instant `ms` after `start`. `adminAt(ms)`: stands the server's clock there and
 * answers the admin's token signed in at that instant (one signed in earlier may have expired).
 * `h` is read at each call: a file's harness starts in its beforeAll.
 */
export function clockFrom(h: () => Harness, start: string) {
  const at = (ms: number) => new Date(new Date(start).getTime() + ms);
  async function adminAt(ms: number): Promise<string> {
    h().clock.set(at(ms));
    return h().token();
  }
  return { at, adminAt };
}
