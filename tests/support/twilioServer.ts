/**
 * A local HTTP server that speaks Twilio's Messages API shape: POST
 * /2010-04-01/Accounts/{sid}/Messages.json, form-encoded To, From, Body, basic auth; answers 201
 * with a `sid` like Twilio's. It keeps what it received; `reply` makes it refuse.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedText {
  accountSid: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  params: Record<string, string>;
}

export interface TwilioServer {
  url: string;
  received: ReceivedText[];
  reply: 'accept' | 'busy' | 'refuse';
  close(): Promise<void>;
}

export async function startTwilioServer(): Promise<TwilioServer> {
  let n = 0;
  const state: Omit<TwilioServer, 'url' | 'close'> = { received: [], reply: 'accept' };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const match = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(req.url ?? '');
      res.setHeader('Content-Type', 'application/json');
      if (req.method !== 'POST' || !match || req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        res.writeHead(404).end(JSON.stringify({ code: 20404, message: 'not found', status: 404 }));
        return;
      }
      state.received.push({
        accountSid: match[1]!,
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['i-twilio-idempotency-token'] as string | undefined,
        params: Object.fromEntries(new URLSearchParams(body)),
      });
      if (state.reply === 'busy') return void res.writeHead(503).end(JSON.stringify({ code: 20503, status: 503 }));
      if (state.reply === 'refuse') return void res.writeHead(400).end(JSON.stringify({ code: 21211, message: "The 'To' number is not valid.", status: 400 }));
      n++;
      res.writeHead(201).end(JSON.stringify({ sid: `SM${String(n).padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as TwilioServer;
}
