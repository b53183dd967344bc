import { DomainError, type DomainErrorOptions } from './DomainError';

/** The request is well formed, but the current state of things refuses it. */
export class Conflict extends DomainError {
  constructor(detail: string, pointer?: string, options: Omit<DomainErrorOptions, 'pointer'> = {}) {
    super(detail, { ...options, ...(pointer ? { pointer } : {}) });
  }
}
