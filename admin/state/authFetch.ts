/**
 * A fetch for the API client that survives an expired access token: on a 401 to an
 * authenticated call it refreshes the tokens once and replays the request; when that fails
 * too, the session is over.
 */
export interface AuthFetchOptions {
  fetch: typeof fetch;
  /** Obtains fresh tokens; resolves to the new access token, or null when the session is over. */
  refresh: () => Promise<string | null>;
  /** The session cannot be renewed. */
  onExpired: () => void;
}

// These answer 401 for a wrong password or a dead refresh token: no point in refreshing for them.
const AUTH_CALL = /\/jwt\/(login|refresh|logout)(?:[?#]|$)/;

export function createAuthFetch({ fetch: baseFetch, refresh, onExpired }: AuthFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const renewable = request.headers.has('Authorization') && !AUTH_CALL.test(request.url);
    // The body can be read only once: keep a copy for the replay before sending.
    const replay = renewable ? request.clone() : null;
    const response = await baseFetch(request);
    if (response.status !== 401 || !replay) return response;

    const access = await refresh();
    if (access) {
      replay.headers.set('Authorization', `Bearer ${access}`);
      const second = await baseFetch(replay);
      if (second.status !== 401) return second;
      onExpired();
      return second;
    }
    onExpired();
    return response;
  };
}
