/**
 * The file storage a server's deps name: the one given (tests), else DATA_DIR/files, made once
 * per deps so every route that stores or reads files (engagement files, engagements' deletes)
 * shares it.
 */
import path from 'node:path';
import { localFileStorage, type FileStorage } from './index';

/**
 * What the server's storage comes from: the fields of its dependencies that fileStorage reads
 * (server/context.ts Deps has them), named here so storage, below the context, needs no import of it.
 */
export interface StorageSource {
  storage?: FileStorage;
  config: { dataDir: string };
}

const storages = new WeakMap<StorageSource, FileStorage>();

/** The storage of these deps: the one given, else DATA_DIR/files. */
export function fileStorage(deps: StorageSource): FileStorage {
  let storage = deps.storage ?? storages.get(deps);
  if (!storage) {
    storage = localFileStorage(path.join(deps.config.dataDir, 'files'));
    storages.set(deps, storage);
  }
  return storage;
}
