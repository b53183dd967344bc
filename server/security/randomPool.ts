/**
 * Random bytes for the many small draws of the participant path (a sealed answer's 12-byte IV, a
 * run's 32-byte token), taken from a block the system's CSPRNG fills 4 kB at a time: each draw of
 * node:crypto randomBytes is a system call of its own, and under load those were a twentieth of
 * the server's busy time. Every byte is handed out once, as a copy; the block is refilled when
 * spent.
 */
import { randomFillSync } from 'node:crypto';

const BLOCK_BYTES = 4096;
const block = Buffer.alloc(BLOCK_BYTES);
let next = BLOCK_BYTES;

/** `size` cryptographically random bytes (at most 256), never handed out before. */
export function pooledRandomBytes(size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`pooledRandomBytes: size ${size} is not 1–256`);
  if (next + size > BLOCK_BYTES) {
    randomFillSync(block);
    next = 0;
  }
  const bytes = Buffer.from(block.subarray(next, next + size));
  // Spent bytes are wiped, so the block never holds a copy of a draw already handed out.
  block.fill(0, next, next + size);
  next += size;
  return bytes;
}
