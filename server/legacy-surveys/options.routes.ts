/**
 * A legacy question's options (/api/options): added, edited (with their transition), moved and
 * deleted through their survey (server/legacy-surveys/options.ts). An option's translations'
 * languages must exist; another sponsor's option answers 404.
 */
import type { Context } from 'hono';
import { OptionInput, OptionPatch, SURVEY_OPTION, SURVEY_OPTION_TYPE } from '@core/model/legacySurvey';
import type { AppEnv, Deps } from '../context';
import type { Db } from '../db/open';
import { sendResource, toResource } from '../http/serialize';
import { UNKNOWN_QUESTION } from './messages';
import { createOption, deleteOption, updateOption } from './options';
import { findOption, findQuestion, orNotFound } from './parts';
import { surveyPartRoutes } from './partRoutes';
import { loadOption } from './structure';
import { assertTranslationLanguages } from '../languages';

async function sendOption(c: Context<AppEnv>, db: Db, id: number, status: 200 | 201) {
  const { id: optionId, ...attributes } = await orNotFound(loadOption(db, id), 'option');
  return sendResource(c, toResource(SURVEY_OPTION_TYPE, optionId, attributes), status);
}

export function legacyOptionsRoutes(deps: Deps) {
  return surveyPartRoutes(deps, {
    what: 'option',
    type: SURVEY_OPTION_TYPE,
    answer: SURVEY_OPTION,
    summaries: { create: 'Create a legacy question option', update: 'Update a legacy question option', remove: 'Delete a legacy question option' },
    input: OptionInput,
    patch: OptionPatch,
    above: { key: 'questionId', find: findQuestion, unknown: UNKNOWN_QUESTION },
    find: findOption,
    idOf: (context) => context.option.id,
    check: (db, attributes) => assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations'),
    create: createOption,
    update: updateOption,
    remove: deleteOption,
    send: sendOption,
  });
}
