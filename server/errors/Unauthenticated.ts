import { DomainError } from './DomainError';

/** Nobody (or nobody still known) is signed in for this call. */
export class Unauthenticated extends DomainError {
  constructor(detail = 'Sign in to continue.') {
    super(detail);
  }
}
