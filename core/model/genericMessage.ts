import * as v from 'valibot';
import { requiredText } from './fields';
import { translations, type Translations } from './translations';

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

export interface GenericMessage {
  id: string;
  keyName: string;
  /** The text in the default language (English). */
  message: string;
  /** Map of API iso code (`es`, `es_MX`) to text. */
  translations: Translations;
  messageType: MessageType;
  created: string;
  modified: string;
}

export const GENERIC_MESSAGE_SORTS = ['keyName', 'message', 'messageType', 'modified'] as const;
export const GENERIC_MESSAGE_DEFAULT_SORT = 'keyName';
export const GENERIC_MESSAGE_DEFAULT_LIMIT = 50;
