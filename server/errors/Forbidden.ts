import { DomainError } from './DomainError';

/** The user may not do this with their access level. */
export class Forbidden extends DomainError {
  constructor(detail = 'You are not allowed to do this with your access level.') {
    super(detail);
  }
}
