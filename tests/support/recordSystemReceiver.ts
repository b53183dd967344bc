/**
 * A sponsor's record system for the tests: a real HTTP server on a free port of 127.0.0.1 that
 * keeps every request it receives (headers and body as text) and answers what the test says —
 * by default 200 with a small JSON body, as a webhook receiver that accepted the referral would.
 * A reply that never settles is a receiver that hangs (the provider's timeout has to end it).
 */
import http from 'node:http';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RecordSystemReceiver {
  /** e.g. http://127.0.0.1:4711 (no path: add the one the provider is configured with). */
  origin: string;
  /** Every request so far, in the order they arrived. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export const ACCEPTED: Reply = { status: 200, contentType: 'application/json', body: '{"accepted":true}' };

export async function startRecordSystem(reply: (request: ReceivedRequest) => Reply | Promise<Reply> = () => ACCEPTED, port = 0): Promise<RecordSystemReceiver> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      void Promise.resolve(reply(request)).then((r) => res.writeHead(r.status, { 'Content-Type': r.contentType ?? 'text/plain', ...r.headers }).end(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the record system is not listening on a TCP port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
