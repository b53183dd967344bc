/**
 * One declaration of a route's body: `describe({ body })` is what the OpenAPI document says the
 * route takes and what its handler reads (`c.var.body`), so the two cannot drift. Route files
 * read no body with a schema of their own; the reader keeps the refusals a body always had, read
 * only when the handler asks (after its own 401/403/404).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { asProblem, forbidden } from '../../../server/http/errors';
import { describe as describeRoute } from '../../../server/openapi/describe';

const SERVER = fileURLToPath(new URL('../../../server/', import.meta.url));

function routeFiles(dir = SERVER): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' || entry.name === 'vendor' ? [] : routeFiles(full);
    return /(^|\.)routes\.ts$|^partRoutes\.ts$/i.test(entry.name) ? [full] : [];
  });
}

/** The readers that take a schema of the caller's: a route file that uses one parses a body the declaration may not describe. */
const OWN_SCHEMA_READERS = /\b(readResource|readJson|readAttributes|readParticipantJson|parseAttributes|req\.json)\b/;

describe('route files read the body their describe() declares', () => {
  it('no route file reads a body with a schema of its own', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(50);
    const offenders = files
      .map((full) => ({ file: path.relative(SERVER, full).split(path.sep).join('/'), source: fs.readFileSync(full, 'utf8') }))
      .flatMap(({ file, source }) => {
        const found = [...new Set([...source.matchAll(new RegExp(OWN_SCHEMA_READERS, 'g'))].map((m) => m[1]!))];
        return found.length === 0 ? [] : [`${file}: ${found.join(', ')}`];
      });
    expect(offenders).toEqual([]);
  });
});

const Thing = v.object({ name: v.pipe(v.string(), v.minLength(1)), size: v.optional(v.number()) });

/** A small app answering errors as the real one does (server/app.ts): the problem's status and errors. */
function testApp() {
  const app = new Hono();
  let allowed = true;
  app.patch(
    '/things/:id',
    describeRoute({ summary: 'Update a thing', body: { resource: 'things', attributes: Thing } }),
    async (_c, next) => {
      if (!allowed) throw forbidden();
      await next();
    },
    async (c) => {
      const { attributes } = await c.var.body.read({ id: Number(c.req.param('id')) });
      const name: string = attributes.name;
      // @ts-expect-error the declared schema has no `colour`: the type is the declaration's
      void attributes.colour;
      return c.json({ name, size: attributes.size ?? null });
    },
  );
  app.post('/visits', describeRoute({ summary: 'A visit', access: 'public', body: { resource: null, attributes: Thing } }), async (c) => {
    const { name } = await c.var.body.read();
    return c.json({ name });
  });
  app.post('/sign-in', describeRoute({ summary: 'Sign in', access: 'public', body: { json: v.object({ user: v.string() }) } }), async (c) => {
    const parsed = await c.var.body.read();
    return parsed.success ? c.json({ user: parsed.output.user }) : c.json({ refused: parsed.issues.length }, 422);
  });
  const Note = v.strictObject({ text: v.pipe(v.string(), v.minLength(1)) });
  app.patch(
    '/labels/:id',
    describeRoute({ summary: 'Edit a label or a note', body: { resource: 'labels', oneOf: { label: Thing, note: Note } } }),
    async (c) => {
      if (c.req.param('id').endsWith('.note')) {
        const { attributes } = await c.var.body.read('note');
        return c.json({ text: attributes.text });
      }
      // @ts-expect-error only the declared schemas' names are read
      void (() => c.var.body.read('fax'));
      const { attributes } = await c.var.body.read('label');
      return c.json({ name: attributes.name });
    },
  );
  app.onError((error, c) => {
    const problem = asProblem(error);
    if (!problem) throw error;
    return c.json({ errors: problem.errors }, problem.status as 400);
  });
  return { app, deny: () => (allowed = false) };
}

const JSON_API = 'application/vnd.api+json';
const send = (app: Hono, method: string, url: string, body: string, type = JSON_API) => app.request(url, { method, body, headers: { 'Content-Type': type } });

describe('c.var.body: the declared body, read when the handler asks', () => {
  it('answers the declared attributes, typed by the declared schema', async () => {
    const { app } = testApp();
    const res = await send(app, 'PATCH', '/things/7', JSON.stringify({ data: { type: 'things', id: '7', attributes: { name: 'Box', size: 3 } } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'Box', size: 3 });
  });

  it('refuses what the declaration refuses: the type, the id, each attribute, the media type', async () => {
    const { app } = testApp();
    const wrongType = await send(app, 'PATCH', '/things/7', JSON.stringify({ data: { type: 'boxes', attributes: { name: 'Box' } } }));
    expect(wrongType.status).toBe(409);
    expect((await wrongType.json()).errors[0].source).toEqual({ pointer: '/data/type' });
    const wrongId = await send(app, 'PATCH', '/things/7', JSON.stringify({ data: { type: 'things', id: '8', attributes: { name: 'Box' } } }));
    expect(wrongId.status).toBe(409);
    expect((await wrongId.json()).errors[0].source).toEqual({ pointer: '/data/id' });
    const badName = await send(app, 'PATCH', '/things/7', JSON.stringify({ data: { type: 'things', attributes: { name: '' } } }));
    expect(badName.status).toBe(422);
    expect((await badName.json()).errors.map((e: { source: unknown }) => e.source)).toEqual([{ pointer: '/data/attributes/name' }]);
    const plain = await send(app, 'PATCH', '/things/7', JSON.stringify({ data: { type: 'things', attributes: { name: 'Box' } } }), 'text/plain');
    expect(plain.status).toBe(415);
  });

  it("reads one of several declared schemas, the one the handler names, with that schema's refusals", async () => {
    const { app } = testApp();
    const label = await send(app, 'PATCH', '/labels/1', JSON.stringify({ data: { type: 'labels', attributes: { name: 'Red' } } }));
    expect(await label.json()).toEqual({ name: 'Red' });
    const note = await send(app, 'PATCH', '/labels/1.note', JSON.stringify({ data: { type: 'labels', attributes: { text: 'Hi' } } }));
    expect(await note.json()).toEqual({ text: 'Hi' });
    // A label's attributes sent to a note: refused by the note's schema, at the note's own attribute.
    const wrong = await send(app, 'PATCH', '/labels/1.note', JSON.stringify({ data: { type: 'labels', attributes: { name: 'Red' } } }));
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/name',
      '/data/attributes/text',
    ]);
  });

  it('reads nothing before the handler asks: a refusal before it answers first, whatever the body', async () => {
    const { app, deny } = testApp();
    deny();
    const res = await send(app, 'PATCH', '/things/7', '{not json');
    expect(res.status).toBe(403);
  });

  it("takes the participant contract's JSON sent as text/plain (attributes of no fixed type, even on a public call), and a plain JSON body's result for the route to answer", async () => {
    const { app } = testApp();
    const visit = await send(app, 'POST', '/visits', JSON.stringify({ data: { type: 'anything', attributes: { name: 'Ann' } } }), 'text/plain;charset=UTF-8');
    expect(visit.status).toBe(200);
    expect(await visit.json()).toEqual({ name: 'Ann' });
    const noAttributes = await send(app, 'POST', '/visits', JSON.stringify({ data: {} }), 'text/plain');
    expect(noAttributes.status).toBe(422);
    expect((await noAttributes.json()).errors[0].title).toBe('Invalid Document');
    const signedIn = await send(app, 'POST', '/sign-in', JSON.stringify({ user: 'ann' }), 'application/json');
    expect(await signedIn.json()).toEqual({ user: 'ann' });
    const refused = await send(app, 'POST', '/sign-in', JSON.stringify({ user: 1 }), 'application/json');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ refused: 1 });
    expect((await send(app, 'POST', '/sign-in', JSON.stringify({ user: 'ann' }), 'text/plain')).status).toBe(415);
  });
});
