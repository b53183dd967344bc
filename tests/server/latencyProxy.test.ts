import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkDirection, startLatencyProxy, type LatencyProxy } from '../support/latencyProxy';

/** 100 kbit/s each way: 12,800 B a second, so 6,400 B take half a second. */
const SLOW = { downKbps: 100, upKbps: 100 };
const BYTES_PER_S = (100 * 1024) / 8;

describe('the latency proxy: a link of limited throughput', () => {
  it('lets each transfer through in its turn, as long as its bytes need', () => {
    const cross = linkDirection();
    // 12,800 B at 100 kbit/s: a second, from the moment it reaches an idle link.
    expect(cross(1_000, BYTES_PER_S, 100)).toBe(2_000);
    // Reaching the link while it is busy: it waits for the first, then takes its own half second.
    expect(cross(1_500, BYTES_PER_S / 2, 100)).toBe(2_500);
    // Once the link is idle again, a transfer starts when it arrives.
    expect(cross(10_000, BYTES_PER_S / 4, 100)).toBe(10_250);
    // Unlimited: through at once, and it does not hold the link for the next.
    expect(cross(10_100, 1_000_000, null)).toBe(10_100);
    expect(cross(10_300, BYTES_PER_S / 4, 100)).toBe(10_550);
  });

  describe('through a real proxy', () => {
    const body = Buffer.alloc(6_400, 'x');
    let upstream: http.Server;
    let proxy: LatencyProxy;
    const received: number[] = [];

    beforeAll(async () => {
      upstream = http.createServer((req, res) => {
        let length = 0;
        req.on('data', (chunk: Buffer) => (length += chunk.length));
        req.on('end', () => {
          received.push(length);
          res.writeHead(200, { 'Content-Type': 'text/plain' }).end(req.method === 'GET' ? body : 'ok');
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      proxy = await startLatencyProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    });
    afterAll(async () => {
      await proxy.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    });

    const timed = async (init?: RequestInit) => {
      const started = performance.now();
      const answer = await fetch(`${proxy.url}/file`, init);
      const text = await answer.text();
      return { ms: performance.now() - started, length: text.length };
    };

    it('takes an answer its bytes’ time down, and two answers one after the other', async () => {
      proxy.setLink(SLOW);
      try {
        const alone = await timed();
        expect(alone.length).toBe(body.length);
        expect(alone.ms).toBeGreaterThanOrEqual(500);
        // Both share the one link: the later of the two has waited for the other's bytes too.
        const both = await Promise.all([timed(), timed()]);
        expect(Math.max(...both.map((b) => b.ms))).toBeGreaterThanOrEqual(1_000);
        await proxy.settled();
      } finally {
        proxy.setLink(null);
      }
    });

    it('takes a request body its time up, and passes it on whole', async () => {
      proxy.setLink(SLOW);
      try {
        const sent = await timed({ method: 'POST', body: body.toString() });
        expect(sent.ms).toBeGreaterThanOrEqual(500);
        expect(received.at(-1)).toBe(body.length);
      } finally {
        proxy.setLink(null);
      }
    });

    it('settles once nothing is in flight', async () => {
      proxy.setLink(SLOW);
      try {
        const pending = timed();
        await new Promise((resolve) => setTimeout(resolve, 50));
        const started = performance.now();
        await proxy.settled();
        // It waited for the answer still crossing the link (about half a second of it was left).
        expect(performance.now() - started).toBeGreaterThanOrEqual(300);
        expect((await pending).length).toBe(body.length);
      } finally {
        proxy.setLink(null);
      }
    });
  });
});
