/**
 * /api/channel-spends: what media channels cost, entered by staff for the funnel's cost per
 * outcome. Any member of staff, on the channels of their sponsors (as /api/media-channels).
 */
import { Hono } from 'hono';
import {
  CHANNEL_SPEND,
  CHANNEL_SPEND_DEFAULT_SORT,
  CHANNEL_SPEND_SORTS,
  CHANNEL_SPEND_TYPE,
  ChannelSpendInput,
  ChannelSpendPatch,
  type ChannelSpend,
} from '@core/model/channelSpend';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { invalid, notFound } from '../http/errors';
import type { ListSpec } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { rowAtPath } from '../http/pathRow';
import { memberRead, rowReader } from '../http/memberRead';
import { sendResource, toResource } from '../http/serialize';
import { describe } from '../openapi/describe';
import { resourceCreation, resourceUpdate } from '../http/resourceWrites';
import { createSpend, deleteSpend, findSpend, SPEND_FILTERS as FILTERS, spendPage, SpendRefused, updateSpend, type SpendRow } from './spends';

const listSpec: ListSpec<(typeof CHANNEL_SPEND_SORTS)[number], typeof FILTERS> = {
  type: CHANNEL_SPEND_TYPE,
  sorts: CHANNEL_SPEND_SORTS,
  defaultSort: CHANNEL_SPEND_DEFAULT_SORT,
  filters: FILTERS,
  fields: CHANNEL_SPEND.names,
};

const serialize = ({ id, created, modified, ...rest }: SpendRow, fields: Set<string> | null = null) =>
  toResource(CHANNEL_SPEND_TYPE, id, { ...rest, created: created.toISOString(), modified: modified.toISOString() } satisfies Omit<ChannelSpend, 'id'>, {
    fields,
  });

const refused = (error: unknown): never => {
  if (error instanceof SpendRefused) throw invalid([{ pointer: `/data/attributes/${error.attribute}`, detail: error.message }]);
  throw error;
};

export function channelSpendsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  const sendOne = async (c: Parameters<typeof sendResource>[0], id: number, user: AppEnv['Variables']['user'], status: 200 | 201 = 200) => {
    const row = await findSpend(db, id, user);
    if (!row) throw notFound('channel spend');
    return sendResource(c, serialize(row), status);
  };

  app.get('/', describe({ summary: 'List channel spends', list: listSpec, answer: { list: CHANNEL_SPEND } }), (c) =>
    answerRows(c, listSpec, (q) => spendPage(db, q, c.get('user')), serialize),
  );

  app.get(
    '/:id',
    describe({ summary: 'Read a channel spend', read: listSpec, answer: { resource: CHANNEL_SPEND } }),
    memberRead(
      listSpec,
      'channel spend',
      rowReader((id, user) => findSpend(db, id, user), serialize),
    ),
  );

  app.post('/', describe(resourceCreation('Enter a channel spend', CHANNEL_SPEND, ChannelSpendInput)), async (c) => {
    const { attributes } = await c.var.body.read();
    const id = await createSpend(db, attributes, c.get('user')).catch(refused);
    return sendOne(c, id, c.get('user'), 201);
  });

  app.patch('/:id', describe(resourceUpdate('Change a channel spend', CHANNEL_SPEND, ChannelSpendPatch)), async (c) => {
    const { id, row: existing } = await rowAtPath(c, 'channel spend', (id) => findSpend(db, id, c.get('user')));
    const { attributes } = await c.var.body.read({ id });
    await updateSpend(db, existing, attributes, c.get('user')).catch(refused);
    return sendOne(c, id, c.get('user'));
  });

  app.delete('/:id', describe({ summary: 'Delete a channel spend', answer: { empty: true } }), async (c) => {
    const { row: existing } = await rowAtPath(c, 'channel spend', (id) => findSpend(db, id, c.get('user')));
    await deleteSpend(db, existing.id);
    return c.body(null, 204);
  });

  return app;
}
