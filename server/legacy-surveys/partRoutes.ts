/**
 * What the pages, questions and options route files share: a survey's part is created under the
 * part its attributes name above it (an unknown one is refused at that attribute), and updated or
 * deleted once found through its survey in the user's scope (else 404, as an unknown part), and
 * answered as it then stands. Each route file gives its schemas, its own checks and its area's
 * functions.
 */
import { Hono, type Context } from 'hono';
import type * as v from 'valibot';
import type { ResourceAnswer } from '@core/model/answers';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { sendResource, toResource } from '../http/serialize';
import { authenticate } from '../auth/guards';
import { requireParent } from '../http/body';
import { rowAtPath } from '../http/pathRow';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { describe } from '../openapi/describe';
import { orNotFound } from './parts';

type Find<T> = (db: Db, id: number | null, user: AuthUser) => Promise<T | undefined>;

export interface SurveyPart<K extends string, Input extends v.GenericSchema<unknown, Record<K, number>>, Patch extends v.GenericSchema, Above, Found> {
  /** The part's name in a 404: 'page', 'question', 'option'. */
  what: string;
  /** What the part is answered as; a body names its type. */
  answer: ResourceAnswer;
  summaries: { create: string; update: string; remove: string };
  input: Input;
  patch: Patch;
  /** The attribute naming the part above, how that part is found, and the refusal when it is not. */
  above: { key: K; find: Find<Above>; unknown: string };
  find: Find<Found>;
  /** What the attributes name besides the part above must exist (languages, tags, …); throws when not. */
  check?: (db: Db, attributes: v.InferOutput<Input> | v.InferOutput<Patch>) => Promise<void>;
  create: (db: Db, above: Above, attributes: v.InferOutput<Input>) => Promise<number>;
  update: (db: Db, found: Found, attributes: v.InferOutput<Patch>) => Promise<unknown>;
  remove: (db: Db, found: Found) => Promise<unknown>;
  /** The part as it now stands, as its answer shows it (its id and attributes); undefined when it is not there. */
  load: (db: Db, id: number, user: AuthUser) => Promise<({ id: string } & Record<string, unknown>) | undefined>;
}

export function surveyPartRoutes<K extends string, Input extends v.GenericSchema<unknown, Record<K, number>>, Patch extends v.GenericSchema, Above, Found>(
  deps: Deps,
  part: SurveyPart<K, Input, Patch, Above, Found>,
) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const atPath = <E extends AppEnv>(c: Context<E>) => rowAtPath(c, part.what, (id) => part.find(db, id, c.get('user')));
  const send = async <E extends AppEnv>(c: Context<E>, id: number, status: 200 | 201, user: AuthUser) => {
    const { id: partId, ...attributes } = await orNotFound(part.load(db, id, user), part.what);
    return sendResource(c, toResource(part.answer.type, partId, attributes), status);
  };

  app.post('/', describe(resourceCreation(part.summaries.create, part.answer, part.input)), async (c) => {
    const user = c.get('user');
    const { attributes } = await c.var.body.read();
    const above = await requireParent(part.above.find(db, (attributes as Record<K, number>)[part.above.key], user), part.above.key, part.above.unknown);
    await part.check?.(db, attributes);
    return send(c, await part.create(db, above, attributes), 201, user);
  });

  app.patch('/:id', describe(resourceUpdate(part.summaries.update, part.answer, part.patch)), async (c) => {
    const { id, row: found } = await atPath(c);
    const { attributes } = await c.var.body.read({ id });
    await part.check?.(db, attributes);
    await part.update(db, found, attributes);
    return send(c, id, 200, c.get('user'));
  });

  app.delete('/:id', describe({ summary: part.summaries.remove, answer: { empty: true } }), async (c) => {
    const { row: found } = await atPath(c);
    await part.remove(db, found);
    return c.body(null, 204);
  });

  return app;
}
