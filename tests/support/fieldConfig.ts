import type { FieldConfiguration } from '@core/model/survey';

/** A question's configuration as a new one has it, with `extra` over it. */
export const fieldConfig = (extra: Partial<FieldConfiguration> = {}): FieldConfiguration => ({
  required: false,
  helperText: null,
  translations: {},
  options: [],
  ...extra,
});
