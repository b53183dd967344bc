/**
 * The app on Node's HTTP/1.1 server through @hono/node-server, with one rule the adapter lacks:
 * an answer sent before its request's body has fully arrived (a 413, a 415, a 401 to a POST the
 * route never read) closes its connection. The adapter would keep such a connection alive and
 * discard the rest of the body for at most half a second before dropping the socket, so a client
 * (or a proxy) reusing the connection meanwhile loses an unrelated request. Closing says so in
 * the answer (`Connection: close`), and Node reads what the client still sends before it closes.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';

export interface Fetchable {
  fetch(request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response>;
}

export interface Serving {
  server: Server;
  /** From now on every answer closes its connection (a stopping server: the next request goes elsewhere). */
  closeEveryConnection(): void;
}

/** Whether the whole request, body included, has been received (a request without a body at once). */
const receivedWhole = (incoming: IncomingMessage) => incoming.complete;

export function serveApp(app: Fetchable, options: { port: number; hostname?: string }, onListening?: (info: AddressInfo) => void): Serving {
  let closeAll = false;
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    const response = await app.fetch(request, env);
    if (env.outgoing instanceof ServerResponse && (closeAll || !receivedWhole(env.incoming as IncomingMessage))) {
      env.outgoing.setHeader('Connection', 'close');
    }
    return response;
  };
  const server = serve({ fetch, port: options.port, hostname: options.hostname }, onListening) as Server;
  return {
    server,
    closeEveryConnection: () => {
      closeAll = true;
    },
  };
}
