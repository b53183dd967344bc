/**
 * What a rule of the product refuses, said without HTTP: the http kit (http/errors.ts) answers
 * each kind with its JSON:API error in one place. `detail` is the sentence a person reads;
 * `pointer` names the attribute at fault, `parameter` the query parameter; `code` and `meta`
 * are for the clients that act on the refusal.
 */
export interface DomainErrorOptions {
  pointer?: string;
  parameter?: string;
  code?: string;
  meta?: Record<string, unknown>;
  /** A more precise title than the kind's own (e.g. "Missing Translations"). */
  title?: string;
}

export abstract class DomainError extends Error {
  readonly detail: string;
  readonly options: DomainErrorOptions;
  constructor(detail: string, options: DomainErrorOptions = {}) {
    super(detail);
    this.name = new.target.name;
    this.detail = detail;
    this.options = options;
  }
}
