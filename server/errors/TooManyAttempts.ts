import { DomainError } from './DomainError';

/** Too many tries in too short a time: try again later. */
export class TooManyAttempts extends DomainError {}
