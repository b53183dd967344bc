/**
 * The one HTTP client every part uses: ky with the JSON:API media type, the bearer token,
 * the Accept-Language header, and failures turned into an `ApiError` carrying the server's
 * error list and a message ready to show.
 */
import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import * as v from 'valibot';
import {
  JSON_API_MEDIA_TYPE,
  decode,
  encode,
  errorsToMessage,
  isErrorDocument,
  toSearchParams,
  type Attributes,
  type DataDocument,
  type ErrorObject,
  type ListParams,
  type Relationship,
  type Resource,
} from '../jsonapi';

export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  constructor(status: number, errors: ErrorObject[], fallback?: string) {
    super(errorsToMessage(errors, fallback));
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

/**
 * A successful answer that is not the shape core/model declares for it (a server and a client of
 * different versions, say): raised rather than letting it flow on typed as what it is not. An
 * ApiError, so screens show its message and `call` passes it through as it is.
 */
export class UnexpectedAnswerError extends ApiError {
  constructor(message: string) {
    super(0, [{ status: '0', title: message }]);
    this.name = 'UnexpectedAnswerError';
  }
}

/** The decoded answer to `call` read through its core/model schema; a mismatch throws UnexpectedAnswerError naming where. */
export function parseAnswer<S extends v.GenericSchema>(schema: S, value: unknown, call: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const where = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(the resource)'}: ${issue.message}`).join('; ');
  throw new UnexpectedAnswerError(`The server's answer to ${call} is not what this screen expects (${where}).`);
}

export interface ApiClientOptions {
  /** Origin plus `/api`, e.g. `https://host/api`. */
  baseUrl: string;
  getToken?: () => string | null | undefined;
  language?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Called when the server answers 401 to an authenticated call. */
  onUnauthorized?: () => void;
}

export interface ListResult<T> {
  items: T[];
  total: number;
  meta: Record<string, unknown>;
}

async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    let body: unknown = null;
    try {
      body = await error.response.clone().json();
    } catch {
      // Not JSON (a proxy's HTML page, say): fall back to the status text below.
    }
    const status = error.response.status;
    if (isErrorDocument(body)) return new ApiError(status, body.errors);
    const title = status >= 500 ? 'There was a server side error. Please contact your Administrator.' : error.response.statusText || `HTTP ${status}`;
    return new ApiError(status, [{ status: String(status), title }]);
  }
  if (error instanceof TimeoutError) {
    return new ApiError(0, [{ status: '0', title: 'The server took too long to answer. Try again.' }]);
  }
  return new ApiError(0, [{ status: '0', title: UNREACHABLE_MESSAGE }]);
}

/** A file the API answered, with the name its Content-Disposition gives. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** The file name a Content-Disposition header gives, if any. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // Fall through to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}

export interface ApiClient {
  http: KyInstance;
  /** Plain fetch with the session's bearer (and its refresh), for clients of routes outside this one (the participant transport of the admin's preview). */
  fetch: typeof fetch;
  /** Any call, its failures turned into ApiError. */
  call<T>(run: (http: KyInstance) => Promise<T>): Promise<T>;
  getDocument(path: string, params?: ListParams): Promise<DataDocument>;
  list<T>(path: string, params?: ListParams): Promise<ListResult<T>>;
  /** The whole list (every page) for these filters, sort and fields, as the API's CSV file. */
  listCsv(path: string, params?: ListParams): Promise<DownloadedFile>;
  get<T>(path: string, params?: ListParams): Promise<T>;
  create<T>(path: string, type: string, attributes: Attributes, relationships?: Record<string, Relationship>): Promise<T>;
  update<T>(path: string, type: string, id: string, attributes: Attributes, relationships?: Record<string, Relationship>): Promise<T>;
  remove(path: string): Promise<void>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const http = ky.create({
    prefixUrl: options.baseUrl,
    timeout: options.timeoutMs ?? 30_000,
    retry: 0,
    fetch: options.fetch,
    headers: { Accept: JSON_API_MEDIA_TYPE, 'Accept-Language': options.language ?? 'en' },
    hooks: {
      beforeRequest: [
        (request) => {
          const token = options.getToken?.();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
          if (request.body !== null && !request.headers.has('Content-Type')) {
            request.headers.set('Content-Type', JSON_API_MEDIA_TYPE);
          }
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          if (response.status === 401 && request.headers.has('Authorization')) options.onUnauthorized?.();
        },
      ],
    },
  });

  const call = async <T>(run: (h: KyInstance) => Promise<T>): Promise<T> => {
    try {
      return await run(http);
    } catch (error) {
      throw await toApiError(error);
    }
  };

  const jsonBody = (doc: unknown) => ({
    body: JSON.stringify(doc),
    headers: { 'Content-Type': JSON_API_MEDIA_TYPE },
  });

  // The server is ours and answers with the documented shapes: decoding is the boundary, and
  // the resource types are declared in core/model beside the schemas that the server enforces.
  const as = <T>(value: unknown): T => value as T;

  return {
    http,
    fetch: (input, init) => {
      const request = new Request(input, init);
      const token = options.getToken?.();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return (options.fetch ?? globalThis.fetch)(request);
    },
    call,
    getDocument: (path, params = {}) => call((h) => h.get(path, { searchParams: toSearchParams(params) }).json<DataDocument>()),
    async list<T>(path: string, params: ListParams = {}) {
      const doc = await call((h) => h.get(path, { searchParams: toSearchParams(params) }).json<DataDocument<Resource[]>>());
      const meta = doc.meta ?? {};
      return { items: as<T[]>(decode(doc)), total: Number(meta.total ?? doc.data.length), meta };
    },
    async listCsv(path, params = {}) {
      const { page: _page, limit: _limit, ...rest } = params;
      const response = await call((h) => h.get(path, { searchParams: toSearchParams(rest), headers: { Accept: 'text/csv' } }));
      return {
        blob: await response.blob(),
        filename: dispositionFilename(response.headers.get('content-disposition')) ?? `${path.split('/').pop() ?? 'list'}.csv`,
      };
    },
    async get<T>(path: string, params: ListParams = {}) {
      const doc = await call((h) => h.get(path, { searchParams: toSearchParams(params) }).json<DataDocument<Resource>>());
      return as<T>(decode(doc));
    },
    async create<T>(path: string, type: string, attributes: Attributes, relationships?: Record<string, Relationship>) {
      const doc = await call((h) => h.post(path, jsonBody(encode(type, attributes, { relationships }))).json<DataDocument<Resource>>());
      return as<T>(decode(doc));
    },
    async update<T>(path: string, type: string, id: string, attributes: Attributes, relationships?: Record<string, Relationship>) {
      const doc = await call((h) => h.patch(path, jsonBody(encode(type, attributes, { id, relationships }))).json<DataDocument<Resource>>());
      return as<T>(decode(doc));
    },
    async remove(path: string) {
      await call((h) => h.delete(path));
    },
  };
}
