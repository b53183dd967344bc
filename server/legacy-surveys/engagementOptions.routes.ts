/**
 * An option's settings per engagement (/api/engagements-options): listed, added one at a time
 * and edited, or replaced as the option's whole set at once
 * (POST /api/update-engagements-options/{optionId}, the SPEC's address for that write). Both
 * addresses write the same resource through server/legacy-surveys/engagementOptions.ts; another
 * sponsor's setting or option answers 404.
 */
import { Hono } from 'hono';
import type { InferOutput } from 'valibot';
import { ENGAGEMENT_OPTION, ENGAGEMENT_OPTION_TYPE, EngagementOptionInput, EngagementOptionPatch, EngagementOptionsReplace } from '@core/model/legacySurvey';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { parseId } from '../http/query';
import { answerRows } from '../http/listAnswer';
import { createUnder, rowMember, updateAtPath } from '../http/memberWrites';
import { modelResource } from '../http/serialize';
import { sendWholeList } from '../http/wholeList';
import {
  createEngagementOption,
  engagementOptionListSpec,
  findEngagementOption,
  listEngagementOptions,
  replaceEngagementOptions,
  toEngagementOption,
  updateEngagementOption,
  type EngagementOptionRow,
} from './engagementOptions';
import { UNKNOWN_OPTION } from './messages';
import { findOption, orNotFound } from './parts';
import { resourceCreation, resourceUpdate, setReplacement } from '../http/resourceWrites';
import { describe } from '../openapi/describe';

const serializeEngagementOption = (row: EngagementOptionRow, fields: Set<string> | null = null) =>
  modelResource(ENGAGEMENT_OPTION_TYPE, toEngagementOption(row), fields);

export function engagementOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));
  const engagementOption = rowMember('engagement option', (id, user) => findEngagementOption(db, id, user), serializeEngagementOption);

  app.get('/', describe({ summary: 'List option engagements', list: engagementOptionListSpec, answer: { list: ENGAGEMENT_OPTION } }), (c) =>
    answerRows(c, engagementOptionListSpec, (q) => listEngagementOptions(db, c.get('user'), q), serializeEngagementOption),
  );

  app.post(
    '/',
    describe(resourceCreation('Link an option to an engagement', ENGAGEMENT_OPTION, EngagementOptionInput)),
    createUnder(
      engagementOption,
      { key: 'optionId', find: (id, user) => findOption(db, id, user), unknown: UNKNOWN_OPTION },
      async (context, attributes: InferOutput<typeof EngagementOptionInput>, user) => (await createEngagementOption(db, context, user, attributes)).id,
    ),
  );

  app.patch(
    '/:id',
    describe(resourceUpdate("Update an option's engagement link", ENGAGEMENT_OPTION, EngagementOptionPatch)),
    updateAtPath(engagementOption, (existing, attributes: InferOutput<typeof EngagementOptionPatch>) => updateEngagementOption(db, existing.id, attributes)),
  );

  return app;
}

/** POST /api/update-engagements-options/{optionId}: the option's whole set, in one transaction. */
export function updateEngagementOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post('/:optionId', describe(setReplacement("Set an option's engagements", ENGAGEMENT_OPTION, EngagementOptionsReplace)), async (c) => {
    const user = c.get('user');
    const context = await orNotFound(findOption(db, parseId(c.req.param('optionId')), user), 'option');
    const { attributes } = await c.var.body.read();
    const rows = await replaceEngagementOptions(db, context, user, attributes.engagementOptions);
    return sendWholeList(
      c,
      rows.map((r) => serializeEngagementOption(r)),
    );
  });

  return app;
}
