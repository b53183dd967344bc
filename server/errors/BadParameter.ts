import { DomainError } from './DomainError';

/** A query parameter's value that makes no sense, named by `parameter`. */
export class BadParameter extends DomainError {
  constructor(detail: string, parameter?: string) {
    super(detail, parameter ? { parameter } : {});
  }
}
