/**
 * Where uploaded files' bytes live. Routes see only this interface, so another backend (an
 * object store, say) can replace the local folder. Metadata stays in the database; the
 * storage knows only opaque keys that the server generates (never a client's file name).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface FileStorage {
  /** Stores `bytes` under a new generated key and returns it. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the bytes; a missing key is not an error. */
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/** Files under `root` (DATA_DIR/files), spread over 256 sub-folders by the key's first byte. */
export function localFileStorage(root: string): FileStorage {
  const where = (key: string) => {
    // Keys come from put(); anything else (a forged row, say) must not escape the folder.
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(root, key);
  };
  return {
    async put(bytes) {
      const id = randomUUID();
      const key = `${id.slice(0, 2)}/${id}`;
      const file = where(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, bytes, { flag: 'wx' });
      await fs.rename(partial, file);
      return key;
    },
    async get(key) {
      try {
        return new Uint8Array(await fs.readFile(where(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(where(key), { force: true });
    },
  };
}

/** In memory, for tests that need no folder. */
export function memoryFileStorage(): FileStorage & { keys(): string[] } {
  const files = new Map<string, Uint8Array>();
  return {
    async put(bytes) {
      const key = `mem/${randomUUID()}`;
      files.set(key, new Uint8Array(bytes));
      return key;
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async remove(key) {
      files.delete(key);
    },
    keys: () => [...files.keys()],
  };
}
