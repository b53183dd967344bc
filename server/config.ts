/**
 * Every environment variable the server reads, parsed and validated in one place. A bad value
 * stops the start with a one-line message naming the variable.
 */
import path from 'node:path';
import { parseContactMatchKey } from './security/contactMatch';
import { parsePhiKey, parsePhiKeys } from './security/phi';
import { privateHostAllowance, type PrivateHostAllowance } from './security/privateHosts';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from './db/open';

/** A Twilio-compatible SMS provider: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM, TWILIO_API_URL. */
export interface SmsConfig {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  /** The number (E.164) or messaging service texts are sent from. */
  from: string;
  /** The REST API's base URL, without a trailing slash. */
  apiUrl: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** When set, PostgreSQL through node-postgres; otherwise embedded PGlite under dataDir/db. */
  databaseUrl: string | null;
  /** PostgreSQL connections each process keeps (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** The embedded database's shared buffers, in MB (resident in the server's process). */
  pgliteSharedBuffersMb: number;
  /** When null, one is generated and kept in dataDir (see auth/secret.ts). */
  jwtSecret: string | null;
  adminUsername: string;
  /** When null on first start, a random password is generated and printed once. */
  adminPassword: string | null;
  demoData: boolean;
  /** The public origin (for links in e-mails, SSO callbacks and embed snippets). */
  publicUrl: string | null;
  accessTokenTtlSeconds: number;
  /** A staff session ends after `idleSeconds` without a refresh, and after `maxSeconds` in all. */
  session: { idleSeconds: number; maxSeconds: number };
  /** Key for participants' contact values at rest; generated into DATA_DIR when unset. */
  phiKey: Buffer | null;
  /** Rotated PHI keys still opened (never used to seal): PHI_PREVIOUS_KEYS, until `npm run phi:reseal` has run. */
  phiPreviousKeys: Buffer[];
  /** Key of the keyed hashes that find a contact's duplicates (never the PHI key); generated into DATA_DIR when unset. */
  contactMatchKey: Buffer | null;
  /** Seconds to wait before each retry of a record-system delivery, in order (RMS_RETRY_SCHEDULE). */
  rmsRetrySchedule: number[];
  /** The ClinicalTrials.gov API v2 base URL site imports fetch studies from (CTGOV_API_URL). */
  ctgovApiUrl: string;
  /** Hosts on private networks record-system endpoints may reach (RMS_ALLOW_PRIVATE_HOSTS); none by default. */
  rmsAllowPrivateHosts: PrivateHostAllowance;
  /** The mail server messages go through (SMTP_URL, smtp:// or smtps://); null: messages wait in the outbox. */
  smtpUrl: string | null;
  /** How long the mail server may stay silent before an attempt fails (SMTP_TIMEOUT_SECONDS). */
  smtpTimeoutSeconds: number;
  /** The From of every message (MAIL_FROM). */
  mailFrom: string;
  /** Seconds to wait before each retry of a message, in order (MESSAGE_RETRY_SCHEDULE). */
  messageRetrySchedule: number[];
  /** Days a sent message's body is kept (MESSAGE_RETENTION_DAYS; 0 keeps them). */
  messageRetentionDays: number;
  /** The hour (0–23, UTC) from which each recruiter's daily digest is written (MESSAGE_DIGEST_HOUR). */
  messageDigestHour: number;
  /** The SMS provider texts go through (SMS_PROVIDER=twilio and its settings); null: texts wait in the outbox. */
  sms: SmsConfig | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  distDir: string;
  /** Largest upload (engagement files, site lists) in bytes; JSON bodies stay at 1 MB. */
  uploadLimitBytes: number;
  /** Single sign-on services by name (SSO_SERVICES=duo,...), each a SAML identity provider. */
  ssoServices: Record<string, SsoServiceConfig>;
  /** Participant abuse limits per window (0 = no limit): submissions and page answers, per client address and per media channel. */
  participantLimits: ParticipantLimits;
  /** Days after which the answers of a submission that never completed are deleted (PARTICIPANT_RETENTION_DAYS; 0 keeps them). */
  participantRetentionDays: number;
  /** Days a lead is kept (LEAD_RETENTION_DAYS; 0 keeps them): server/leads/retention.ts. */
  leadRetentionDays: number;
  /** Server processes on the one port (node:cluster); more than one needs PostgreSQL. */
  workers: number;
  /** Minutes without activity after which a run's last page counts as abandoned (FUNNEL_ABANDON_MINUTES; 0 at once). */
  funnelAbandonMinutes: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take before the process exits anyway. */
  shutdownTimeoutSeconds: number;
}

export interface ParticipantLimits {
  windowSeconds: number;
  submissionsPerAddress: number;
  submissionsPerChannel: number;
  pagesPerAddress: number;
  pagesPerChannel: number;
  /** Views of one channel counted per client address per window (a reloading bot cannot inflate them past it). */
  viewsPerAddress: number;
}

export interface SsoServiceConfig {
  name: string;
  /** The identity provider's sign-in URL. */
  entryPoint: string;
  /** The identity provider's signing certificate (PEM). Responses signed otherwise are refused. */
  idpCert: string;
  /** The identity provider's entity id, when it should be checked. */
  idpIssuer: string | null;
  /** Our entity id at the identity provider (the audience of its assertions). */
  issuer: string;
  /** Where the identity provider posts its response. */
  callbackUrl: string;
  /** Where signing out of the identity provider happens. */
  logoutUrl: string | null;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const jwtSecret = env.JWT_SECRET?.trim() || null;
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  }
  const adminUsername = env.ADMIN_USERNAME?.trim() || 'admin';
  if (!/^[\w.@-]{3,64}$/.test(adminUsername)) {
    throw new ConfigError('ADMIN_USERNAME must be 3 to 64 letters, digits or . _ @ -');
  }
  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters long');
  }
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const workers = integer(env, 'WORKERS', 1, 1, 64);
  if (workers > 1 && !databaseUrl) {
    throw new ConfigError(`WORKERS=${workers} needs DATABASE_URL: the embedded database (PGlite) is opened by one process only`);
  }

  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 500),
    pgliteSharedBuffersMb: integer(env, 'PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, 1, 4096),
    jwtSecret,
    adminUsername,
    adminPassword,
    demoData: bool(env, 'DEMO_DATA', true),
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL', 15 * 60, 30, 24 * 3600),
    session: {
      idleSeconds: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60) * 60,
      maxSeconds: integer(env, 'SESSION_MAX_HOURS', 12, 1, 24 * 30) * 3600,
    },
    logLevel,
    distDir: path.resolve(cwd, env.DIST_DIR?.trim() || './dist'),
    phiKey: key(env, 'PHI_ENCRYPTION_KEY', parsePhiKey),
    phiPreviousKeys: keys(env, 'PHI_PREVIOUS_KEYS', parsePhiKeys),
    contactMatchKey: key(env, 'CONTACT_MATCH_KEY', parseContactMatchKey),
    rmsRetrySchedule: retrySchedule(env),
    smtpUrl: smtpUrl(env),
    mailFrom: mailFrom(env),
    smtpTimeoutSeconds: integer(env, 'SMTP_TIMEOUT_SECONDS', 30, 1, 600),
    messageRetrySchedule: retrySchedule(env, 'MESSAGE_RETRY_SCHEDULE', DEFAULT_MESSAGE_RETRY_SCHEDULE),
    messageRetentionDays: integer(env, 'MESSAGE_RETENTION_DAYS', 30, 0, 36_500),
    messageDigestHour: integer(env, 'MESSAGE_DIGEST_HOUR', 7, 0, 23),
    sms: smsConfig(env),
    rmsAllowPrivateHosts: allowedPrivateHosts(env),
    ctgovApiUrl: (url(env, 'CTGOV_API_URL', ['http:', 'https:']) ?? 'https://clinicaltrials.gov/api/v2').replace(/\/+$/, ''),
    ssoServices: ssoServices(env, publicUrl?.replace(/\/+$/, '') ?? null),
    uploadLimitBytes: integer(env, 'UPLOAD_LIMIT_MB', 25, 1, 1024) * 1024 * 1024,
    participantRetentionDays: integer(env, 'PARTICIPANT_RETENTION_DAYS', 180, 0, 36_500),
    leadRetentionDays: integer(env, 'LEAD_RETENTION_DAYS', 365, 0, 36_500),
    participantLimits: {
      windowSeconds: integer(env, 'PARTICIPANT_LIMIT_WINDOW_SECONDS', 60, 1, 24 * 3600),
      submissionsPerAddress: integer(env, 'PARTICIPANT_SUBMISSIONS_PER_ADDRESS', 30, 0, 1_000_000),
      submissionsPerChannel: integer(env, 'PARTICIPANT_SUBMISSIONS_PER_CHANNEL', 600, 0, 1_000_000),
      pagesPerAddress: integer(env, 'PARTICIPANT_PAGES_PER_ADDRESS', 300, 0, 1_000_000),
      pagesPerChannel: integer(env, 'PARTICIPANT_PAGES_PER_CHANNEL', 6000, 0, 10_000_000),
      viewsPerAddress: integer(env, 'PARTICIPANT_VIEWS_PER_ADDRESS', 60, 0, 1_000_000),
    },
    workers,
    funnelAbandonMinutes: integer(env, 'FUNNEL_ABANDON_MINUTES', 30, 0, 7 * 24 * 60),
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 600),
  };
}

/** Reads SSO_SERVICES and, for each name N, SSO_<N>_ENTRY_POINT, _CERT, _ISSUER, _IDP_ISSUER, _LOGOUT_URL. */
function ssoServices(env: Env, publicUrl: string | null): Record<string, SsoServiceConfig> {
  const names = (env.SSO_SERVICES ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  const out: Record<string, SsoServiceConfig> = {};
  for (const name of names) {
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(name)) throw new ConfigError(`SSO_SERVICES names letters, digits and _ only, got "${name}"`);
    const key = (suffix: string) => `SSO_${name.toUpperCase()}_${suffix}`;
    if (!publicUrl) throw new ConfigError(`PUBLIC_URL is needed for single sign-on (the identity provider posts back to it)`);
    const entryPoint = url(env, key('ENTRY_POINT'), ['http:', 'https:']);
    if (!entryPoint) throw new ConfigError(`${key('ENTRY_POINT')} is required when SSO_SERVICES names ${name}`);
    const cert = env[key('CERT')]?.trim();
    if (!cert) throw new ConfigError(`${key('CERT')} is required: the identity provider's signing certificate (PEM)`);
    if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(cert.replace(/\\n/g, '\n'))) {
      throw new ConfigError(`${key('CERT')} must be a PEM certificate (-----BEGIN CERTIFICATE----- ...)`);
    }
    out[name] = {
      name,
      entryPoint,
      idpCert: cert.replace(/\\n/g, '\n'),
      idpIssuer: env[key('IDP_ISSUER')]?.trim() || null,
      issuer: env[key('ISSUER')]?.trim() || `${publicUrl}/jwt/saml/metadata/${name}`,
      callbackUrl: `${publicUrl}/jwt/saml/acs/${name}`,
      logoutUrl: url(env, key('LOGOUT_URL'), ['http:', 'https:']),
    };
  }
  return out;
}

export const DEFAULT_RMS_RETRY_SCHEDULE = [60, 300, 1800, 7200, 43200, 86400];
/** The longest wait a retry schedule, or a Retry-After, may ask for: a week. */
export const MAX_RETRY_WAIT_SECONDS = 7 * 24 * 3600;

export const DEFAULT_MESSAGE_RETRY_SCHEDULE = [60, 300, 1800, 7200, 43200];

/** SMTP_URL: smtp:// or smtps://; its password is never repeated in an error. */
function smtpUrl(env: Env): string | null {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:password@mail.example:587');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  return raw;
}

/** SMS_PROVIDER (only twilio) and the Twilio account's settings, each required once a provider is named. */
function smsConfig(env: Env): SmsConfig | null {
  const provider = env.SMS_PROVIDER?.trim().toLowerCase();
  if (!provider) return null;
  if (provider !== 'twilio') throw new ConfigError(`SMS_PROVIDER must be twilio; got "${provider}"`);
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new ConfigError(`${name} is required when SMS_PROVIDER is twilio`);
    return value;
  };
  const accountSid = required('TWILIO_ACCOUNT_SID');
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits');
  const authToken = required('TWILIO_AUTH_TOKEN');
  const from = required('TWILIO_FROM');
  if (!/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/.test(from))
    throw new ConfigError(`TWILIO_FROM must be a number in E.164 form (+15551234567) or a messaging service SID; got "${from}"`);
  const apiUrl = (url(env, 'TWILIO_API_URL', ['http:', 'https:']) ?? 'https://api.twilio.com').replace(/\/+$/, '');
  return { provider: 'twilio', accountSid, authToken, from, apiUrl };
}

/** MAIL_FROM: one address, or "Name <address>". */
function mailFrom(env: Env): string {
  const raw = env.MAIL_FROM?.trim();
  if (!raw) return 'Trial recruitment <no-reply@localhost>';
  if (!/^([^<>\r\n]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/.test(raw))
    throw new ConfigError(`MAIL_FROM must be an address or "Name <address>"; got "${raw}"`);
  return raw;
}

/** RMS_RETRY_SCHEDULE (or `name`): comma-separated seconds between attempts, e.g. "60,300,1800"; "none" for no retries. */
function retrySchedule(env: Env, name = 'RMS_RETRY_SCHEDULE', fallback = DEFAULT_RMS_RETRY_SCHEDULE): number[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw.toLowerCase() === 'none') return [];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 20 || parts.some((p) => !/^\d{1,7}$/.test(p) || Number(p) > MAX_RETRY_WAIT_SECONDS)) {
    throw new ConfigError(
      `${name} must be up to 20 comma-separated whole numbers of seconds (each at most ${MAX_RETRY_WAIT_SECONDS}), or "none"; got "${raw}"`,
    );
  }
  return parts.map(Number);
}

/** RMS_ALLOW_PRIVATE_HOSTS: comma-separated host names, IP addresses or CIDR ranges, e.g. "records.lan,10.1.2.0/24". */
function allowedPrivateHosts(env: Env): PrivateHostAllowance {
  const entries = (env.RMS_ALLOW_PRIVATE_HOSTS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  try {
    return privateHostAllowance(entries);
  } catch (error) {
    throw new ConfigError(
      `RMS_ALLOW_PRIVATE_HOSTS must be comma-separated host names, IP addresses or CIDR ranges: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function keys(env: Env, name: string, parse: (raw: string) => Buffer[]): Buffer[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  try {
    return parse(raw);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

function key(env: Env, name: string, parse: (raw: string) => Buffer): Buffer | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    return parse(raw);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}
