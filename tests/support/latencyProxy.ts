/**
 * A slow network between a browser and the server, for the browser tests and the widget bench: a
 * plain HTTP proxy on a free port of 127.0.0.1 that holds every request for half the round trip
 * before passing it on and every answer for the other half before sending it back, and logs each
 * request (method and path, OPTIONS included) as it arrives.
 *
 * Chromium's own network emulation delays answers but not CORS preflights, so a wire that needs a
 * preflight looks as fast there as one that does not; through this proxy a preflight costs its
 * round trip like any request. The Host header goes through unchanged: the server sees the
 * proxy's address as its own origin, as the browser does. A test may hold the answer to a
 * request (the server has answered it, the browser waits) until it lets it go.
 *
 * The link may also have a throughput (`setLink`), one per direction shared by every connection,
 * as a mobile network's bottleneck is: each request's and each answer's bytes (headers and body,
 * as sent: compressed where the server compresses) take their time on it one after another, then
 * half the round trip. TCP's slow start is not imitated, which favours large transfers: a
 * comparison it makes is, if anything, kind to the side that sends more bytes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the browser sent them. */
  path: string;
  /** When the request arrived, epoch ms (comparable with a browser's performance.timeOrigin + now() on this machine). */
  at: number;
  /** When its answer went back, epoch ms; undefined until then. */
  done?: number;
}

/** An answer the proxy keeps from the browser until released. */
export interface HeldAnswer {
  /** Resolves once the request has come and the server's answer to it is held. */
  held: Promise<ProxiedRequest>;
  /** Sends the answer on (at once if it is held already, else as soon as it comes). */
  release(): void;
}

export interface LatencyProxy {
  /** e.g. http://127.0.0.1:4711: use it where the server's address would go. */
  url: string;
  /** Every request so far, in arrival order. */
  log: ProxiedRequest[];
  /** The round trip added to every request from now on, in ms. */
  setRoundTrip(ms: number): void;
  /** The link's throughput from now on, in kbit/s each way (1 kbit = 1,024 bits, as Lighthouse counts); null: unlimited. */
  setLink(link: LinkThroughput | null): void;
  /** Resolves once no request is in flight (those of a closed page included: their bytes hold the link until sent). */
  settled(): Promise<void>;
  /** Holds the server's answer to the next request that `matches` (arriving from now on). */
  hold(matches: (request: ProxiedRequest) => boolean): HeldAnswer;
  close(): Promise<void>;
}

/** A link's throughput each way, in kbit/s (1,024 bits). */
export interface LinkThroughput {
  downKbps: number;
  upKbps: number;
}

/**
 * Lighthouse's mobile throttling preset ("Slow 4G": 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up; WebPageTest's "Mobile 3G - Fast"), the round trip this proxy's benches use.
 */
export const MOBILE_LINK: LinkThroughput = { downKbps: 1.6 * 1024, upKbps: 750 };

/** One direction of the link: transfers take their turn, each as long as its bytes need. */
export function linkDirection() {
  let freeAt = 0;
  /** When `bytes` that reach the link at `now` have crossed it, epoch ms; `now` when the link is unlimited. */
  return (now: number, bytes: number, kbps: number | null) => {
    if (kbps === null) return now;
    freeAt = Math.max(freeAt, now) + (bytes * 8 * 1000) / (kbps * 1024);
    return freeAt;
  };
}

/** The bytes of a message's head as HTTP/1.1 sends it: its start line, each name with ": " and each value with CRLF, and the blank line. */
const headBytes = (startLine: string, rawHeaders: string[]) => rawHeaders.reduce((sum, part) => sum + part.length + 2, startLine.length + 4);

const sleep = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : resolve()));

export async function startLatencyProxy(target: string, roundTripMs = 0, host = '127.0.0.1'): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const clock = () => performance.timeOrigin + performance.now();
  const log: ProxiedRequest[] = [];
  let rtt = roundTripMs;
  let link: LinkThroughput | null = null;
  const up = linkDirection();
  const down = linkDirection();
  let inFlight = 0;
  /** Holds waiting for their request: each takes the first that matches, then waits with its answer. */
  const holds: { matches: (request: ProxiedRequest) => boolean; answered: (request: ProxiedRequest) => Promise<void> }[] = [];
  const takeHold = (entry: ProxiedRequest) => {
    const index = holds.findIndex((h) => h.matches(entry));
    return index < 0 ? undefined : holds.splice(index, 1)[0]!.answered;
  };
  const server = http.createServer((req, res) => {
    const entry: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', at: clock() };
    log.push(entry);
    inFlight++;
    const hold = takeHold(entry);
    const half = rtt / 2;
    // The body is read at once (as the network would deliver it) and passed on after the delay.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const sent = Buffer.concat(chunks);
      const crossed = up(clock(), headBytes(`${req.method} ${req.url} HTTP/1.1`, req.rawHeaders) + sent.length, link?.upKbps ?? null);
      await sleep(crossed - clock() + half);
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
        async (answer) => {
          const body: Buffer[] = [];
          for await (const chunk of answer) body.push(chunk as Buffer);
          await hold?.(entry);
          const bytes = headBytes(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`, answer.rawHeaders) + body.reduce((n, b) => n + b.length, 0);
          await sleep(down(clock(), bytes, link?.downKbps ?? null) - clock() + half);
          inFlight--;
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body), () => (entry.done = clock()));
        },
      );
      forward.on('error', () => {
        inFlight--;
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      });
      forward.end(sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    log,
    setRoundTrip: (ms) => void (rtt = ms),
    setLink: (next) => void (link = next),
    async settled() {
      // Bounded: a request whose browser went away before sending all of it never ends.
      for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 10) await sleep(10);
    },
    hold(matches) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: (request: ProxiedRequest) => void;
      const arrived = new Promise<ProxiedRequest>((resolve) => (held = resolve));
      holds.push({
        matches,
        answered(request) {
          held(request);
          return released;
        },
      });
      return { held: arrived, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The longest chain of requests each of which was sent after the previous one's answer came:
 * the sequential requests. Only requests answered by `until` (epoch ms) count.
 */
export function sequentialTrips(requests: ProxiedRequest[], until: number): ProxiedRequest[] {
  const done = requests.filter((r) => r.done !== undefined && r.done <= until).sort((a, b) => a.at - b.at);
  const best: ProxiedRequest[][] = [];
  for (const [i, r] of done.entries()) {
    let chain: ProxiedRequest[] = [];
    for (let j = 0; j < i; j++) if (done[j]!.done! <= r.at && best[j]!.length > chain.length) chain = best[j]!;
    best.push([...chain, r]);
  }
  return best.reduce<ProxiedRequest[]>((a, b) => (b.length > a.length ? b : a), []);
}
