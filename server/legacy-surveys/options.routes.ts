/**
 * A legacy question's options (/api/options): added, edited (with their transition), moved and
 * deleted through their survey (server/legacy-surveys/options.ts). An option's translations'
 * languages must exist; another sponsor's option answers 404.
 */
import { Hono } from 'hono';
import { OptionInput, OptionPatch, SURVEY_OPTION, SURVEY_OPTION_TYPE } from '@core/model/legacySurvey';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { authenticate } from '../auth/guards';
import { readResource, requireParent } from '../http/body';
import { parseId } from '../http/query';
import { sendResource, toResource } from '../http/serialize';
import { UNKNOWN_QUESTION } from './messages';
import { createOption, deleteOption, updateOption } from './options';
import { findOption, findQuestion, orNotFound } from './parts';
import { loadOption } from './structure';
import { describe } from '../openapi/describe';
import { assertTranslationLanguages } from '../languages';

async function sendOption(c: Parameters<typeof sendResource>[0], db: Db, id: number, status: 200 | 201 = 200) {
  const option = await orNotFound(loadOption(db, id), 'option');
  const { id: optionId, ...attributes } = option;
  return sendResource(c, toResource(SURVEY_OPTION_TYPE, optionId, attributes), status);
}

export function legacyOptionsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.post(
    '/',
    describe({
      summary: 'Create a legacy question option',
      body: { resource: SURVEY_OPTION_TYPE, attributes: OptionInput },
      answer: { resource: SURVEY_OPTION, status: 201 },
    }),
    async (c) => {
      const user = c.get('user');
      const { attributes } = await readResource(c, OptionInput, { type: SURVEY_OPTION_TYPE });
      const context = await requireParent(findQuestion(db, attributes.questionId, user), 'questionId', UNKNOWN_QUESTION);
      await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
      return sendOption(c, db, await createOption(db, context, attributes), 201);
    },
  );

  app.patch(
    '/:id',
    describe({
      summary: 'Update a legacy question option',
      body: { resource: SURVEY_OPTION_TYPE, attributes: OptionPatch },
      answer: { resource: SURVEY_OPTION },
    }),
    async (c) => {
      const user = c.get('user');
      const context = await orNotFound(findOption(db, parseId(c.req.param('id')), user), 'option');
      const id = context.option.id;
      const { attributes } = await readResource(c, OptionPatch, { type: SURVEY_OPTION_TYPE, id });
      await assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations');
      await updateOption(db, context, attributes);
      return sendOption(c, db, id);
    },
  );

  app.delete('/:id', describe({ summary: 'Delete a legacy question option', answer: { empty: true } }), async (c) => {
    const context = await orNotFound(findOption(db, parseId(c.req.param('id')), c.get('user')), 'option');
    await deleteOption(db, context);
    return c.body(null, 204);
  });

  return app;
}
