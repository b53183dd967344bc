import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('runs several workers only on PostgreSQL, and waits 10 s for requests in flight by default', () => {
    expect(loadConfig({})).toMatchObject({ workers: 1, shutdownTimeoutSeconds: 10 });
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: 'postgres://u@db/app', SHUTDOWN_TIMEOUT_SECONDS: '30' })).toMatchObject({
      workers: 4,
      shutdownTimeoutSeconds: 30,
    });
  });

  it('has working defaults for a fresh machine', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({
      port: 3000,
      dataDir: '/srv/app/data',
      databaseUrl: null,
      jwtSecret: null,
      adminUsername: 'admin',
      adminPassword: null,
      demoData: true,
      publicUrl: null,
      pgliteSharedBuffersMb: 32,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        PORT: '8080',
        DATA_DIR: '/var/lib/app',
        DATABASE_URL: 'postgres://u@db:5432/app',
        JWT_SECRET: 'x'.repeat(40),
        ADMIN_USERNAME: 'boss',
        ADMIN_PASSWORD: 'long-enough',
        DEMO_DATA: 'false',
        PUBLIC_URL: 'https://recruit.example.com/',
        LOG_LEVEL: 'warn',
        PGLITE_SHARED_BUFFERS_MB: '128',
      },
      '/srv/app',
    );
    expect(c).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/app',
      databaseUrl: 'postgres://u@db:5432/app',
      adminUsername: 'boss',
      demoData: false,
      publicUrl: 'https://recruit.example.com',
      logLevel: 'warn',
      pgliteSharedBuffersMb: 128,
    });
  });

  it('reads single sign-on services, deriving our callback and entity id from PUBLIC_URL', () => {
    const cert = '-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----';
    const c = loadConfig({ PUBLIC_URL: 'https://recruit.example', SSO_SERVICES: 'duo', SSO_DUO_ENTRY_POINT: 'https://idp.example/sso', SSO_DUO_CERT: cert });
    expect(c.ssoServices.duo).toMatchObject({
      callbackUrl: 'https://recruit.example/jwt/saml/acs/duo',
      issuer: 'https://recruit.example/jwt/saml/metadata/duo',
      idpCert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      logoutUrl: null,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with postgres:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET must be at least 32 characters/],
    [{ ADMIN_PASSWORD: 'short' }, /^ADMIN_PASSWORD must be at least 8 characters/],
    [{ ADMIN_USERNAME: 'a b' }, /^ADMIN_USERNAME must be/],
    [{ DEMO_DATA: 'perhaps' }, /^DEMO_DATA must be true or false/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL must start with http:/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ SESSION_IDLE_MINUTES: '0' }, /^SESSION_IDLE_MINUTES must be between 1 and 1440/],
    [{ SSO_SERVICES: 'duo' }, /^PUBLIC_URL is needed for single sign-on/],
    [{ SSO_SERVICES: 'duo', PUBLIC_URL: 'https://a.example' }, /^SSO_DUO_ENTRY_POINT is required/],
    [{ SSO_SERVICES: 'duo', PUBLIC_URL: 'https://a.example', SSO_DUO_ENTRY_POINT: 'https://idp.example/sso' }, /^SSO_DUO_CERT is required/],
    [
      { SSO_SERVICES: 'duo', PUBLIC_URL: 'https://a.example', SSO_DUO_ENTRY_POINT: 'https://idp.example/sso', SSO_DUO_CERT: 'abc' },
      /^SSO_DUO_CERT must be a PEM certificate/,
    ],
    [{ SSO_SERVICES: 'du o' }, /^SSO_SERVICES names letters/],
    [{ WORKERS: '2' }, /^WORKERS=2 needs DATABASE_URL: the embedded database \(PGlite\) is opened by one process only$/],
    [{ WORKERS: '0', DATABASE_URL: 'postgres://u@db/app' }, /^WORKERS must be between 1 and 64/],
    [{ PGLITE_SHARED_BUFFERS_MB: '0' }, /^PGLITE_SHARED_BUFFERS_MB must be between 1 and 4096/],
    [{ PGLITE_SHARED_BUFFERS_MB: '32MB' }, /^PGLITE_SHARED_BUFFERS_MB must be/],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '0' }, /^SHUTDOWN_TIMEOUT_SECONDS must be between 1 and 600/],
  ])('refuses %j with a one-line message', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env as Record<string, string>);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('CONTACT_MATCH_KEY', () => {
  it('takes 32 bytes as hex or base64, refuses anything else naming the variable, and is null when unset', () => {
    expect(loadConfig({ CONTACT_MATCH_KEY: 'ab'.repeat(32) }).contactMatchKey).toEqual(Buffer.alloc(32, 0xab));
    expect(loadConfig({ CONTACT_MATCH_KEY: Buffer.alloc(32, 3).toString('base64') }).contactMatchKey).toEqual(Buffer.alloc(32, 3));
    expect(loadConfig({}).contactMatchKey).toBeNull();
    expect(() => loadConfig({ CONTACT_MATCH_KEY: 'too-short' })).toThrow(new ConfigError('CONTACT_MATCH_KEY must be 32 bytes, as base64 or 64 hex characters'));
  });
});

describe('message settings', () => {
  it('reads the mail server, sender, timeout, retry schedule and retention, refusing bad values without repeating a password', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      smtpUrl: null,
      mailFrom: 'Trial recruitment <no-reply@localhost>',
      smtpTimeoutSeconds: 30,
      messageRetrySchedule: [60, 300, 1800, 7200, 43200],
      messageRetentionDays: 30,
      messageDigestHour: 7,
    });
    expect(
      loadConfig({
        SMTP_URL: 'smtps://mailer:s3cret@mail.example:465',
        MAIL_FROM: 'Studies <studies@recruit.example>',
        SMTP_TIMEOUT_SECONDS: '5',
        MESSAGE_RETRY_SCHEDULE: 'none',
        MESSAGE_RETENTION_DAYS: '0',
        MESSAGE_DIGEST_HOUR: '18',
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://mailer:s3cret@mail.example:465',
      mailFrom: 'Studies <studies@recruit.example>',
      smtpTimeoutSeconds: 5,
      messageRetrySchedule: [],
      messageRetentionDays: 0,
      messageDigestHour: 18,
    });
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ SMTP_URL: 'http://mailer:s3cret@mail.example' })).toBe('SMTP_URL must start with smtp:// or smtps://');
    expect(refused({ SMTP_URL: 'smtp://mailer:s3cret@[bad' })).not.toContain('s3cret');
    expect(refused({ MAIL_FROM: 'not an address' })).toMatch(/^MAIL_FROM must be/);
    expect(refused({ MESSAGE_RETRY_SCHEDULE: '60,soon' })).toMatch(/^MESSAGE_RETRY_SCHEDULE must be/);
    expect(refused({ MESSAGE_DIGEST_HOUR: '24' })).toMatch(/^MESSAGE_DIGEST_HOUR must be/);
  });
});
