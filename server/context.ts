import type { RoleName } from '@core/model/user';
import type { Config } from './config';
import type { Db } from './db/open';
import type { Logger } from './log';
import type { ContactMatcher } from './security/contactMatch';
import type { PhiCipher } from './security/phi';
import type { FileStorage } from './storage';

/** What every route module is built from. */
export interface Deps {
  db: Db;
  config: Config;
  jwtSecret: string;
  log: Logger;
  /** Uploaded files' bytes; DATA_DIR/files when not given. */
  storage?: FileStorage;
  /** Seals participants' contact values; from PHI_ENCRYPTION_KEY or DATA_DIR/phi-key when not given. */
  phi?: PhiCipher;
  /** Keyed hashes of contacts' e-mail and phone (duplicates); from CONTACT_MATCH_KEY or DATA_DIR/contact-match-key when not given. */
  contactMatch?: ContactMatcher;
  /**
   * The instant the server acts at; the wall clock when not given. Every rule that depends on the
   * time (token and session expiry, lockout, TOTP steps, rate-limit windows, ages, hand-offs, record-system delivery schedules) asks
   * it, never Date.now() or the database's now(), so there is one clock and a test can say which
   * instant it means.
   */
  clock?: Clock;
  /** Rows a CSV export reads at a time; CSV_READ_PAGE (http/csvLists.ts) when not given. Tests cross pages with fewer rows. */
  csvReadPage?: number;
}

export type Clock = () => Date;

/** The server's current instant (see `Deps.clock`). */
export const nowOf = (deps: Pick<Deps, 'clock'>): Date => (deps.clock ? deps.clock() : new Date());

/** The signed-in member of staff, as the guards see them. */
export interface AuthUser {
  id: number;
  username: string;
  roles: RoleName[];
  sponsorIds: number[];
  /** The site locations a Site Coordinator is tied to (empty for everyone else). */
  siteLocationIds: number[];
}

/**
 * How a route wants its request in the audit trail, when the generic record of a write does not
 * fit: exports (reads that must be recorded) and actions whose answer must not be copied into the
 * trail (a record system's response may echo a participant's details).
 */
export interface AuditNote {
  entity: string;
  entityId: string | number | null;
  action: string;
  meta?: Record<string, unknown>;
  /**
   * For an answer streamed after the route returns (a list's CSV): settles with what is known
   * only at its end (the rows written, whether the client took them all), added to `meta`.
   */
  settled?: Promise<Record<string, unknown>>;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    user: AuthUser;
    audit?: AuditNote;
    /** Set when the client asked for a list as CSV (http/csvLists.ts): the instant that names the file. */
    listCsv?: { at: Date; readPage: number };
    /** A participant call's submission token when its body carried it (server/participant/access.ts). */
    bodyToken?: string;
    /**
     * Called by authenticate (auth/guards.ts) once the request's user is known, before the route's
     * own guards and handler: the audit trail reads there what an update or a deletion replaces.
     */
    authenticated?: (user: AuthUser) => Promise<void>;
  };
}
