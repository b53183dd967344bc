import type { RoleName } from '../core/model/user';
import type { Config } from './config';
import type { Db } from './db/open';
import type { Logger } from './http/log';
import type { FileStorage } from './storage';

/** What every route module is built from. */
export interface Deps {
  db: Db;
  config: Config;
  jwtSecret: string;
  log: Logger;
  /** Uploaded files' bytes; DATA_DIR/files when not given. */
  storage?: FileStorage;
}

/** The signed-in member of staff, as the guards see them. */
export interface AuthUser {
  id: number;
  username: string;
  roles: RoleName[];
  sponsorIds: number[];
}

export interface AppEnv {
  Variables: {
    requestId: string;
    user: AuthUser;
  };
}
