/**
 * The pooled random bytes (server/security/randomPool.ts) behind a sealed answer's IV and a run's
 * token: each draw is its own, across the block's refills, and a size out of range is refused.
 */
import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from '../../../server/security/randomPool';

describe('pooled random bytes', () => {
  it('hands out draws of the size asked, none the same, across many refills of the block', () => {
    const seen = new Set<string>();
    // 12- and 32-byte draws, as IVs and tokens take them: 44 kB, about eleven blocks.
    for (let i = 0; i < 1000; i++) {
      const iv = pooledRandomBytes(12);
      const token = pooledRandomBytes(32);
      expect(iv).toHaveLength(12);
      expect(token).toHaveLength(32);
      seen.add(iv.toString('hex'));
      seen.add(token.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('a draw is a copy: changing it changes no later draw', () => {
    const first = pooledRandomBytes(16);
    first.fill(0);
    expect(pooledRandomBytes(16).equals(Buffer.alloc(16))).toBe(false);
  });

  it('refuses a size it cannot serve', () => {
    for (const size of [0, -1, 1.5, 257, Number.NaN]) expect(() => pooledRandomBytes(size)).toThrow(RangeError);
  });
});
