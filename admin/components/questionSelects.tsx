/** A question's type and category, as both survey editors (versioned and legacy) choose them. */
import { FIELD_TYPE_NAMES, FIELD_TYPES, type FieldType } from '@core/model/survey';
import type { OptionsState } from '../hooks/useOptions';
import { labelledOptions, Select } from './form/Select';

const TYPE_OPTIONS = labelledOptions(FIELD_TYPES, FIELD_TYPE_NAMES);

/** The question's type; `name` is the question's own (the select is `<name>-type`). */
export function QuestionTypeSelect({
  name,
  value,
  disabled,
  onChange,
}: {
  name: string;
  value: FieldType;
  disabled?: boolean;
  onChange: (type: FieldType) => void;
}) {
  return (
    <Select label="Type" name={`${name}-type`} options={TYPE_OPTIONS} value={value} disabled={disabled} onChange={(type) => onChange(type as FieldType)} />
  );
}

/** The question's category ('' for none) from the loaded question categories, whose failure shows as the field's error. */
export function QuestionCategorySelect({
  name,
  categories,
  value,
  disabled,
  onChange,
}: {
  name: string;
  categories: OptionsState;
  value: string;
  disabled?: boolean;
  onChange: (categoryId: string) => void;
}) {
  return (
    <Select
      label="Category"
      name={`${name}-category`}
      emptyLabel="No category"
      options={categories.options}
      loading={categories.loading}
      error={categories.error ?? undefined}
      value={value}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
