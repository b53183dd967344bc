import * as v from 'valibot';
import { requiredText } from './fields';
import { answeredTranslations, translations } from './translations';
import { instant, resourceAnswer, type Answered } from './answers';

export const GENERIC_MESSAGE_TYPE = 'generic-messages';

export const MESSAGE_TYPES = ['default', 'global'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * What staff may change on a generic message: its default-language text and its translations.
 * The key name is what the participant runner looks the message up by, so it is fixed.
 */
export const GenericMessagePatch = v.partial(
  v.strictObject({
    message: requiredText(5000),
    translations: translations(5000),
  }),
);
export type GenericMessagePatch = v.InferInput<typeof GenericMessagePatch>;

/** A generic message as the API answers it: the one description of its attributes. */
export const GENERIC_MESSAGE = resourceAnswer(
  GENERIC_MESSAGE_TYPE,
  v.object({
    keyName: v.pipe(v.string(), v.description('What the participant runner looks the message up by; fixed.')),
    message: v.pipe(v.string(), v.description('The text in the default language (English).')),
    translations: answeredTranslations(),
    messageType: v.picklist(MESSAGE_TYPES),
    created: instant(),
    modified: instant(),
  }),
);

export type GenericMessage = Answered<typeof GENERIC_MESSAGE>;

export const GENERIC_MESSAGE_SORTS = ['keyName', 'message', 'messageType', 'modified'] as const;
export const GENERIC_MESSAGE_DEFAULT_SORT = 'keyName';
export const GENERIC_MESSAGE_DEFAULT_LIMIT = 50;
