import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** SPEC section 9: a screen's code that has not arrived after this long is treated as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** A screen's code could not be loaded (network down, deploy replaced the chunk, or too slow). */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** Runs `load`, failing with ChunkLoadError when it rejects or takes longer than `timeoutMs`. */
export function loadWithTimeout<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`The screen did not load within ${Math.round(timeoutMs / 1000)} seconds.`)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('The screen could not be loaded.', { cause }));
      },
    );
  });
}

export type LazyScreen = LazyExoticComponent<ComponentType> & {
  /** Starts loading the code before the screen is shown (a link pointed at, a route entered). */
  preload(): void;
};

/** A screen loaded on first use (or preload); a failure surfaces in the nearest ScreenBoundary. */
export const lazyScreen = (load: () => Promise<{ default: ComponentType }>, timeoutMs: number = CHUNK_TIMEOUT_MS): LazyScreen => {
  let loading: Promise<{ default: ComponentType }> | null = null;
  const once = () => {
    // A failed load is tried again next time: the network may be back.
    loading ??= loadWithTimeout(load, timeoutMs).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  return Object.assign(lazy(once), {
    preload: () => {
      once().catch(() => undefined);
    },
  });
};
