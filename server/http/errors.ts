/**
 * Errors a route throws to answer with a JSON:API error document. Anything else thrown is
 * unexpected and becomes a 500 that names only the request id (see app.ts).
 */
import type { ErrorObject } from '@core/jsonapi';
import type { FieldIssue } from '@core/model/fields';
import { BadParameter, Conflict, DomainError, Forbidden, Invalid, NotFound, TooManyAttempts, Unauthenticated } from '../errors';

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 422 | 429 | 500 | 502;

export class ApiProblem extends Error {
  readonly status: ErrorStatus;
  readonly errors: ErrorObject[];
  constructor(status: ErrorStatus, errors: ErrorObject[]) {
    super(errors[0]?.detail ?? errors[0]?.title ?? 'Error');
    this.status = status;
    this.errors = errors;
  }
}

const one = (status: ErrorStatus, title: string, detail: string, source?: ErrorObject['source']) =>
  new ApiProblem(status, [{ status: String(status), title, detail, ...(source ? { source } : {}) }]);

export const badRequest = (detail: string, parameter?: string) => one(400, 'Bad Request', detail, parameter ? { parameter } : undefined);
export const unauthorized = (detail = 'Sign in to continue.') => one(401, 'Unauthorized', detail);
export const forbidden = (detail = 'You are not allowed to do this with your access level.') => one(403, 'Forbidden', detail);
export const notFound = (what = 'resource') => one(404, 'Not Found', `The ${what} you're looking for is not here.`);
export const conflict = (detail: string, pointer?: string) => one(409, 'Conflict', detail, pointer ? { pointer } : undefined);
export const notAcceptable = (detail: string) => one(406, 'Not Acceptable', detail);
export const unsupportedMediaType = () => one(415, 'Unsupported Media Type', 'Send the request body as application/vnd.api+json or application/json.');
export const payloadTooLarge = (limit: string) => one(413, 'Payload Too Large', `The request body is larger than ${limit}.`);
export const uploadTooLarge = (limitBytes: number) =>
  one(413, 'Payload Too Large', `The file is larger than the upload limit of ${Math.round(limitBytes / 1024 / 1024)} MB.`, { pointer: '/file' });

/** A 422 listing each invalid value by its pointer. */
export const invalid = (issues: readonly FieldIssue[]) =>
  new ApiProblem(
    422,
    issues.map((i) => ({ status: '422', title: 'Invalid Attribute', detail: i.detail, source: { pointer: i.pointer } })),
  );

export const internalError = (requestId: string): ErrorObject => ({
  status: '500',
  title: 'Internal Server Error',
  detail: `Something went wrong on our side. Please try again; if it keeps happening, contact your Administrator with reference ${requestId}.`,
});

const DOMAIN_ANSWERS: [new (...args: never[]) => DomainError, ErrorStatus, string][] = [
  [NotFound, 404, 'Not Found'],
  [Conflict, 409, 'Conflict'],
  [Invalid, 422, 'Invalid Attribute'],
  [Forbidden, 403, 'Forbidden'],
  [BadParameter, 400, 'Bad Request'],
  [Unauthenticated, 401, 'Unauthorized'],
  [TooManyAttempts, 429, 'Too Many Requests'],
];

/** A domain error as its JSON:API answer: the one place the kinds meet their statuses. */
export function problemOfDomainError(error: DomainError): ApiProblem {
  const [, status, kindTitle] = DOMAIN_ANSWERS.find(([kind]) => error instanceof kind) ?? [DomainError, 500 as const, 'Internal Server Error'];
  const { pointer, parameter, code, meta, title = kindTitle } = error.options;
  if (error instanceof Invalid && error.issues.length > 0) {
    return new ApiProblem(
      status,
      error.issues.map((i) => ({ status: String(status), title, detail: i.detail, source: { pointer: i.pointer } })),
    );
  }
  const source = pointer ? { pointer } : parameter ? { parameter } : undefined;
  return new ApiProblem(status, [
    { status: String(status), title, detail: error.detail, ...(code ? { code } : {}), ...(source ? { source } : {}), ...(meta ? { meta } : {}) },
  ]);
}

/** The answer an error thrown by a route or a rule gives, or null when it is unexpected (a 500). */
export function asProblem(error: unknown): ApiProblem | null {
  if (error instanceof ApiProblem) return error;
  if (error instanceof DomainError) return problemOfDomainError(error);
  return null;
}
