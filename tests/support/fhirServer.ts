/**
 * A small FHIR R4 server for tests of the `fhir` record system: it keeps what it is sent and
 * processes a `transaction` Bundle as a FHIR server does. Each entry's conditional create
 * (`ifNoneExist`) is searched among the resources already stored (`identifier=system|value`,
 * `url`, `version`, `email`, all parameters must match; more than one match is a 412), a match
 * is reused and anything else is created; references to an entry's `fullUrl` are rewritten to
 * the stored `Type/id`. It answers a `transaction-response` Bundle. `fail` makes it answer a
 * given status and body instead, storing nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

type Stored = Resource & { id: string; identifier?: unknown; url?: string; version?: string; telecom?: { system?: string; value?: string }[] };

export interface FhirServer {
  url: string;
  /** Every request received, in order: headers and the parsed body. */
  received: { headers: http.IncomingHttpHeaders; bundle: Bundle }[];
  /** The stored resources by type. */
  store: Map<string, Stored[]>;
  /** How many resources of each type are stored. */
  counts(): Record<string, number>;
  fail: { status: number; body: unknown } | null;
  close(): Promise<void>;
}

const identifiersOf = (resource: Stored): { system?: string; value?: string }[] =>
  Array.isArray(resource.identifier)
    ? (resource.identifier as { system?: string; value?: string }[])
    : resource.identifier
      ? [resource.identifier as { system?: string; value?: string }]
      : [];

function matches(resource: Stored, name: string, value: string): boolean {
  switch (name) {
    case 'identifier': {
      const bar = value.indexOf('|');
      const [system, code] = bar === -1 ? [undefined, value] : [value.slice(0, bar), value.slice(bar + 1)];
      return identifiersOf(resource).some((i) => i.value === code && (system === undefined || i.system === system));
    }
    case 'url':
      return resource.url === value;
    case 'version':
      return resource.version === value;
    case 'email':
      return (resource.telecom ?? []).some((t) => t.system === 'email' && t.value?.toLowerCase() === value.toLowerCase());
    default:
      throw new Error(`the test FHIR server does not search by ${name}`);
  }
}

function rewrite(value: unknown, ids: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'reference' && typeof v === 'string' && ids.has(v) ? ids.get(v) : rewrite(v, ids)]),
    );
  }
  return value;
}

export async function startFhirServer(): Promise<FhirServer> {
  const store = new Map<string, Stored[]>();
  let next = 1;
  const server: FhirServer = {
    url: '',
    received: [],
    store,
    counts: () => Object.fromEntries([...store].map(([type, list]) => [type, list.length])),
    fail: null,
    close: () => new Promise<void>((resolve) => (http_.closeAllConnections(), http_.close(() => resolve()))),
  };

  function transaction(bundle: Bundle): { status: number; body: unknown } {
    if (bundle.resourceType !== 'Bundle' || bundle.type !== 'transaction') return { status: 400, body: outcome('structure', 'Expected a transaction Bundle') };
    const ids = new Map<string, string>();
    const created: Stored[] = [];
    const responses: BundleEntry[] = [];
    for (const e of bundle.entry ?? []) {
      const resource = e.resource as Stored | undefined;
      if (!resource || e.request?.method !== 'POST') return { status: 400, body: outcome('not-supported', 'Only POST entries are handled here') };
      const list = store.get(resource.resourceType) ?? [];
      const criteria = e.request.ifNoneExist ? [...new URLSearchParams(e.request.ifNoneExist)] : null;
      const found = criteria ? list.filter((r) => criteria.every(([name, value]) => matches(r, name, value))) : [];
      if (found.length > 1)
        return { status: 412, body: outcome('multiple-matches', `${e.request.ifNoneExist} matches ${found.length} ${resource.resourceType}s`) };
      if (found.length === 1) {
        ids.set(e.fullUrl!, `${resource.resourceType}/${found[0]!.id}`);
        responses.push({ response: { status: '200 OK', location: `${resource.resourceType}/${found[0]!.id}` } });
        continue;
      }
      const stored = { ...resource, id: String(next++) } as Stored;
      created.push(stored);
      ids.set(e.fullUrl!, `${resource.resourceType}/${stored.id}`);
      responses.push({ response: { status: '201 Created', location: `${resource.resourceType}/${stored.id}` } });
    }
    for (const resource of created) {
      const resolved = rewrite(resource, ids) as Stored;
      store.set(resource.resourceType, [...(store.get(resource.resourceType) ?? []), resolved]);
    }
    return { status: 200, body: { resourceType: 'Bundle', type: 'transaction-response', entry: responses } };
  }

  const http_ = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const bundle = JSON.parse(body) as Bundle;
      server.received.push({ headers: req.headers, bundle });
      const answer = server.fail ?? transaction(bundle);
      res.writeHead(answer.status, { 'Content-Type': 'application/fhir+json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => http_.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http_.address() as AddressInfo).port}/fhir`;
  return server;
}

const outcome = (code: string, diagnostics: string) => ({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] });
