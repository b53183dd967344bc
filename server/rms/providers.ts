/**
 * Record-system provider rows: a page of them, one, creating, changing and deleting them, and
 * their secrets. The signing secret and a FHIR bearer token are sealed with the PHI cipher
 * (security/phi.ts) before they are stored and opened only to sign or send; nothing here answers
 * them.
 */
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  RMS_PROVIDER_KINDS,
  RMS_PROVIDER_MESSAGES,
  RMS_PROVIDER_SORTS,
  settingsIssues,
  type RmsProvider,
  type RmsProviderInput,
  type RmsProviderPatch,
} from '@core/model/rmsProvider';
import type { Db } from '../db/open';
import { engagements, rmsProviders } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import { sortColumnsOf, tablePage } from '../http/list';
import type { ListQuery } from '../http/query';
import { booleanParam, choiceParam, searchParam } from '../http/params';
import { ilikeAny, rethrowConstraint, valueTakenIgnoringCase } from '../http/sql';
import type { PhiCipher } from '../security/phi';
import { endpointHostProblem, type PrivateHostAllowance } from '../security/privateHosts';

export type RmsProviderRow = typeof rmsProviders.$inferSelect;

/** A provider's secrets, opened: what the transports sign and authenticate with. */
export interface ProviderSecrets {
  secret: string | null;
  bearerToken: string | null;
}

/** Opens a stored secret; a value stored before secrets were sealed is read as it is. */
function openStored(phi: PhiCipher, stored: string | null): string | null {
  if (stored === null) return null;
  return phi.isSealed(stored) ? phi.open(stored) : stored;
}

export const openSecrets = (phi: PhiCipher, row: Pick<RmsProviderRow, 'signingSecret' | 'bearerToken'>): ProviderSecrets => ({
  secret: openStored(phi, row.signingSecret),
  bearerToken: openStored(phi, row.bearerToken),
});

/** The provider as the API shows it: Super Users see its settings, others its name and kind. */
export function toRmsProvider(row: RmsProviderRow, options: { full: boolean; engagementCount?: number }): RmsProvider {
  const base = { id: String(row.id), name: row.name, kind: row.kind as RmsProvider['kind'], isActive: row.isActive };
  if (!options.full) return base;
  return {
    ...base,
    endpoint: row.endpointUrl,
    timeoutMs: row.timeoutMs,
    hasSecret: row.signingSecret !== null,
    hasBearerToken: row.bearerToken !== null,
    engagementCount: options.engagementCount ?? 0,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

/** How many engagements use each provider. */
const sortColumns = sortColumnsOf(rmsProviders, RMS_PROVIDER_SORTS);

/** What the providers list narrows by. */
export const PROVIDER_FILTERS = { searchQuery: searchParam, isActive: booleanParam, kind: choiceParam(RMS_PROVIDER_KINDS) };

/** A page of the providers, filtered as the list asks. */
export function providerPage(db: Db, q: ListQuery<(typeof RMS_PROVIDER_SORTS)[number], typeof PROVIDER_FILTERS>) {
  const conditions: (SQL | undefined)[] = [
    ilikeAny([rmsProviders.name], q.filters.searchQuery),
    q.filters.isActive !== undefined ? eq(rmsProviders.isActive, q.filters.isActive) : undefined,
    q.filters.kind ? eq(rmsProviders.kind, q.filters.kind) : undefined,
  ];
  return tablePage(db, rmsProviders, q, { where: and(...conditions), sorts: sortColumns, id: rmsProviders.id });
}

export async function findProvider(db: Db, id: number | null): Promise<RmsProviderRow | undefined> {
  const [row] = id === null ? [] : await db.select().from(rmsProviders).where(eq(rmsProviders.id, id));
  return row;
}

export async function engagementCounts(db: Db, providerIds: readonly number[]): Promise<Map<number, number>> {
  if (providerIds.length === 0) return new Map();
  const rows = await db
    .select({ id: engagements.rmsProviderId, n: count() })
    .from(engagements)
    .where(inArray(engagements.rmsProviderId, [...providerIds]))
    .groupBy(engagements.rmsProviderId);
  return new Map(rows.map((r) => [r.id!, r.n]));
}

function assertSettings(row: { kind: string; endpointUrl: string | null; signingSecret: string | null; bearerToken: string | null }) {
  const issues = settingsIssues({
    kind: row.kind as RmsProvider['kind'],
    endpoint: row.endpointUrl,
    hasSecret: row.signingSecret !== null,
    hasBearerToken: row.bearerToken !== null,
  });
  const list = Object.entries(issues).map(([key, detail]) => ({ pointer: `/data/attributes/${key}`, detail: detail! }));
  if (list.length) throw new Invalid(list);
}

/** An endpoint on a private network (unless allowed) is refused when saved as well as when connected to. */
async function assertEndpointHost(allowance: PrivateHostAllowance, endpoint: string | null | undefined) {
  if (!endpoint) return;
  const problem = await endpointHostProblem(allowance, endpoint);
  if (problem) throw new Invalid([{ pointer: '/data/attributes/endpoint', detail: problem }]);
}

const nameTaken = () => new Conflict(RMS_PROVIDER_MESSAGES.nameTaken, '/data/attributes/name');

async function assertNameFree(db: Db, name: string | undefined, exceptId?: number) {
  if (name !== undefined && (await valueTakenIgnoringCase(db, rmsProviders.name, rmsProviders.id, name, exceptId))) throw nameTaken();
}

const rethrowName = (error: unknown): never => rethrowConstraint(error, { unique: nameTaken });

/** The stored form of a write-only value: undefined keeps it, null removes it, text is sealed. */
const sealed = (phi: PhiCipher, value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : phi.seal(value));

export async function createProvider(db: Db, phi: PhiCipher, allowance: PrivateHostAllowance, input: RmsProviderInput, now: Date): Promise<RmsProviderRow> {
  const values = {
    name: input.name,
    kind: input.kind,
    endpointUrl: input.endpoint ?? null,
    timeoutMs: input.timeoutMs ?? 5000,
    isActive: input.isActive ?? true,
    signingSecret: sealed(phi, input.secret) ?? null,
    bearerToken: sealed(phi, input.bearerToken) ?? null,
    created: now,
    modified: now,
  };
  assertSettings(values);
  await assertEndpointHost(allowance, values.endpointUrl);
  await assertNameFree(db, input.name);
  const [row] = await db.insert(rmsProviders).values(values).returning().catch(rethrowName);
  return row!;
}

export async function updateProvider(
  db: Db,
  phi: PhiCipher,
  allowance: PrivateHostAllowance,
  current: RmsProviderRow,
  patch: RmsProviderPatch,
  now: Date,
): Promise<RmsProviderRow> {
  const changes = {
    name: patch.name,
    kind: patch.kind,
    endpointUrl: patch.endpoint,
    timeoutMs: patch.timeoutMs,
    isActive: patch.isActive,
    signingSecret: sealed(phi, patch.secret),
    bearerToken: sealed(phi, patch.bearerToken),
  };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  // A provider switched away from FHIR drops its bearer token rather than keep one nobody sends.
  if (patch.kind !== undefined && patch.kind !== 'fhir' && patch.bearerToken === undefined) defined.bearerToken = null;
  assertSettings({ ...current, ...defined });
  await assertEndpointHost(allowance, patch.endpoint);
  await assertNameFree(db, patch.name, current.id);
  const [row] = await db
    .update(rmsProviders)
    .set({ ...defined, modified: now })
    .where(eq(rmsProviders.id, current.id))
    .returning()
    .catch(rethrowName);
  return row!;
}

/** Deletes a provider no engagement uses; one in use is a 409 naming how many use it. */
export async function deleteProvider(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    // Locks the provider so an engagement cannot pick it between the count and the delete.
    await tx.execute(sql`select id from rms_providers where id = ${id} for update`);
    const [used] = await tx.select({ n: count() }).from(engagements).where(eq(engagements.rmsProviderId, id));
    if (used && used.n > 0) throw new Conflict(RMS_PROVIDER_MESSAGES.inUse(used.n));
    await tx.delete(rmsProviders).where(eq(rmsProviders.id, id));
  });
}

/** Seals secrets stored in clear before secrets were sealed (rows edited by hand). Once per start. */
export async function sealStoredSecrets(db: Db, phi: PhiCipher): Promise<number> {
  const rows = await db.select().from(rmsProviders);
  let changed = 0;
  for (const row of rows) {
    const secret = row.signingSecret !== null && !phi.isSealed(row.signingSecret) ? phi.seal(row.signingSecret) : undefined;
    const bearerToken = row.bearerToken !== null && !phi.isSealed(row.bearerToken) ? phi.seal(row.bearerToken) : undefined;
    if (secret === undefined && bearerToken === undefined) continue;
    await db.update(rmsProviders).set({ signingSecret: secret, bearerToken }).where(eq(rmsProviders.id, row.id));
    changed++;
  }
  return changed;
}
