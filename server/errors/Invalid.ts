import type { FieldIssue } from '@core/model/fields';
import { DomainError, type DomainErrorOptions } from './DomainError';

/**
 * Values that are not acceptable, each named by its JSON pointer; or, given a sentence, the
 * thing as a whole (e.g. a survey missing translations), with `options` for its title and code.
 */
export class Invalid extends DomainError {
  readonly issues: readonly FieldIssue[];
  constructor(issues: readonly FieldIssue[] | string, options: Omit<DomainErrorOptions, 'pointer'> = {}) {
    super(typeof issues === 'string' ? issues : (issues[0]?.detail ?? 'Invalid'), options);
    this.issues = typeof issues === 'string' ? [] : issues;
  }
}
