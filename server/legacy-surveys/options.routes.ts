/**
 * A legacy question's options (/api/options): added, edited (with their transition), moved and
 * deleted through their survey (server/legacy-surveys/options.ts). An option's translations'
 * languages must exist; another sponsor's option answers 404.
 */
import { OptionInput, OptionPatch, SURVEY_OPTION } from '@core/model/legacySurvey';
import type { Deps } from '../context';
import { UNKNOWN_QUESTION } from './messages';
import { createOption, deleteOption, updateOption } from './options';
import { findOption, findQuestion } from './parts';
import { surveyPartRoutes } from './partRoutes';
import { loadOption } from './structure';
import { assertTranslationLanguages } from '../languages';

export function legacyOptionsRoutes(deps: Deps) {
  return surveyPartRoutes(deps, {
    what: 'option',
    answer: SURVEY_OPTION,
    summaries: { create: 'Create a legacy question option', update: 'Update a legacy question option', remove: 'Delete a legacy question option' },
    input: OptionInput,
    patch: OptionPatch,
    above: { key: 'questionId', find: findQuestion, unknown: UNKNOWN_QUESTION },
    find: findOption,
    check: (db, attributes) => assertTranslationLanguages(db, attributes.translations, '/data/attributes/translations'),
    create: createOption,
    update: updateOption,
    remove: deleteOption,
    load: loadOption,
  });
}
