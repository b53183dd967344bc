import { DomainError } from './DomainError';

/** The thing asked for is not there (or not for this user, which reads the same). */
export class NotFound extends DomainError {
  constructor(what = 'resource') {
    super(`The ${what} you're looking for is not here.`);
  }
}
