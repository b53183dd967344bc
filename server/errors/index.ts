/** The domain errors: what rule modules throw; the http kit answers them (http/errors.ts). */
export { DomainError, type DomainErrorOptions } from './DomainError';
export { BadParameter } from './BadParameter';
export { Conflict } from './Conflict';
export { Forbidden } from './Forbidden';
export { Invalid } from './Invalid';
export { NotFound } from './NotFound';
export { TooManyAttempts } from './TooManyAttempts';
export { Unauthenticated } from './Unauthenticated';
