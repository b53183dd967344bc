/**
 * The record systems (server/rms/) an engagement names; below engagements, apart from the
 * deliveries that follow contacts.
 */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { created, isActive, modified } from './columns';

/**
 * A record system that receives qualified participants' contacts. `kind` picks the provider
 * implementation (server/rms/): 'none' only records, 'webhook' POSTs signed JSON to `endpointUrl`.
 */
export const rmsProviders = pgTable(
  'rms_providers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    /** none (record only), webhook (Standard Webhooks) or fhir (FHIR R4 transaction Bundle). */
    kind: text('kind').notNull().default('none'),
    endpointUrl: text('endpoint_url'),
    /** The Standard Webhooks secret (whsec_…), sealed with the PHI key (security/phi.ts). */
    signingSecret: text('signing_secret'),
    /** A FHIR server's bearer token, sealed like the secret. */
    bearerToken: text('bearer_token'),
    timeoutMs: integer('timeout_ms').notNull().default(5000),
    /** An inactive provider's deliveries wait (nothing is sent) until it is active again. */
    isActive: isActive(),
    created: created(),
    modified: modified(),
  },
  (t) => [check('rms_providers_kind_check', sql`${t.kind} in ('none', 'webhook', 'fhir')`)],
);
