/**
 * The file storage a server's deps name: the one given (tests), else DATA_DIR/files, made once
 * per deps so every route that stores or reads files (engagement files, engagements' deletes)
 * shares it.
 */
import path from 'node:path';
import type { Deps } from '../context';
import { localFileStorage, type FileStorage } from './index';

const storages = new WeakMap<Deps, FileStorage>();

/** The storage of these deps: the one given, else DATA_DIR/files. */
export function fileStorage(deps: Deps): FileStorage {
  let storage = deps.storage ?? storages.get(deps);
  if (!storage) {
    storage = localFileStorage(path.join(deps.config.dataDir, 'files'));
    storages.set(deps, storage);
  }
  return storage;
}
