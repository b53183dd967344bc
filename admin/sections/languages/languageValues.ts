import { toApiIsoCode, toUiIsoCode } from '@core/i18n';
import type { Language, LanguageInput } from '@core/model/language';

export const LANGUAGE_LABELS = {
  name: 'Name',
  description: 'Description',
  isoCode: 'ISO Code',
  isActive: 'Active',
  isDefault: 'Default',
  created: 'Created',
  modified: 'Modified',
} as const;

export type LanguageFormValues = { name: string; description: string; isoCode: string; isActive: boolean };

/** The form shows and takes the interface form of the code (`es-MX`). */
export const toLanguageFormValues = (language?: Language): LanguageFormValues => ({
  name: language?.name ?? '',
  description: language?.description ?? '',
  isoCode: language ? toUiIsoCode(language.isoCode) : '',
  isActive: language?.isActive ?? true,
});

export const toLanguageInput = (values: LanguageFormValues): LanguageInput => ({
  ...values,
  isoCode: toApiIsoCode(values.isoCode.trim()),
});
