/** Writing JSON:API resources in server tests, each answer read with its document. */
import { doc, json, type Harness } from './harness';

type Attributes = Record<string, unknown>;

/**
 * POST, PATCH and DELETE on the resources under `prefix` (`/api` or `/api/o-forms`), as
 * `admin()` unless a token is given. `h` and `admin` are read at each call: a file's
 * harness starts in its beforeAll.
 */
export function resourceCalls(h: () => Harness, prefix: string, admin: () => string) {
  async function post(path: string, type: string, attributes: Attributes, token = admin()) {
    const res = await h().request('POST', `${prefix}/${path}`, { token, body: doc(type, attributes) });
    return { res, body: await json(res) };
  }
  /** PATCH {prefix}/{path}/{id}; the resource type is the path's name. */
  async function patch(path: string, id: string, attributes: Attributes, token = admin(), relationships?: Attributes) {
    const res = await h().request('PATCH', `${prefix}/${path}/${id}`, { token, body: doc(path, attributes, id, relationships) });
    return { res, body: await json(res) };
  }
  const del = (path: string, id: string, token = admin()) => h().request('DELETE', `${prefix}/${path}/${id}`, { token });
  return { post, patch, del };
}

/** The pointers of an error document's errors, in order. */
export const pointers = (body: { errors: { source?: { pointer?: string } }[] }) => body.errors.map((e) => e.source?.pointer);
