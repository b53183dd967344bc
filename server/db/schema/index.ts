/**
 * The database schema (PostgreSQL dialect, run on PGlite or PostgreSQL), one file per area of
 * the server that owns its tables. Migrations in ../migrations are generated from this index
 * with `npm run db:generate` and committed. A file imports the tables its foreign keys name
 * from the owning file, and the files import one another one way only (no circles).
 */
export * from './app-settings';
export * from './lookups';
export * from './sponsors';
export * from './users';
export * from './auth';
export * from './rms-providers';
export * from './engagements';
export * from './sites';
export * from './languages';
export * from './contact-fields';
export * from './screeners';
export * from './channels';
export * from './legacy-surveys';
export * from './surveys';
export * from './participant';
export * from './referrals';
export * from './leads';
export * from './rms';
export * from './funnel';
export * from './messages';
export * from './audit';
export * from './rate-limits';
