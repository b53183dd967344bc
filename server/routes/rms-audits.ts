/**
 * The record system, staff side (Super User): the audit list with each contact's delivery state,
 * resending one contact or every undelivered one a filter shows; and the callbacks by which a
 * record system reports a referral screened or randomized (rms/callbacks.ts): public, but
 * refused with one 401 unless they carry the provider's secret.
 */
import { Hono } from 'hono';
import { getTableColumns, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import type { Resource } from '@core/jsonapi';
import { toFieldIssues } from '@core/model/fields';
import {
  RESEND_MESSAGES,
  RMS_AUDIT_DEFAULT_SORT,
  RMS_AUDIT_FILTERS,
  RMS_AUDIT_SORTS,
  RMS_AUDIT_TYPE,
  RMS_DELIVERY_STATUSES,
  FHIR_SUBJECT_STATUSES,
  RmsCallbackInput,
  type RmsDeliveryStatus,
} from '@core/model/rmsAudit';
import { RMS_PROVIDER_TYPE } from '@core/model/rmsProvider';
import { nowOf, type AppEnv, type Deps } from '../context';
import { rmsAudits, rmsProviders } from '../db/schema';
import { authenticate, requireRole } from '../auth/guards';
import { badRequest, conflict, invalid, notFound, unauthorized, unsupportedMediaType } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { plain, sendDocument, sendList, sendResource, toResource } from '../http/serialize';
import { parseBooleanFilter } from '../http/sql';
import { listAudits, requeueUndelivered, type AuditFilters, type AuditListRow } from '../rms/audits';
import { applyReferralStatus, authenticFhirCallback, referralKeyOf, ResearchSubjectUpdate, verifySignedCallback } from '../rms/callbacks';
import { FHIR_CONTENT_TYPE } from '../rms/fhir';
import type { RmsAuditRow } from '../rms/outbox';
import { deliverAllSoon, deliveryOptionsOf, resend } from '../rms/worker';
import { phiOf } from '../security/phi';
import { describe } from '../openapi/describe';

const INCLUDE_PROVIDERS = 'rmsProviders';
const listSpec: ListSpec<(typeof RMS_AUDIT_SORTS)[number], (typeof RMS_AUDIT_FILTERS)[number] | 'searchQuery'> = {
  type: RMS_AUDIT_TYPE,
  sorts: RMS_AUDIT_SORTS,
  defaultSort: RMS_AUDIT_DEFAULT_SORT,
  includes: [INCLUDE_PROVIDERS],
  filters: [...RMS_AUDIT_FILTERS, 'searchQuery'],
  // An audit's columns and its delivery's (AuditListRow), for `fields` and CSV columns.
  fields: [
    ...Object.keys(getTableColumns(rmsAudits)).filter((k) => k !== 'id'),
    'engagementId',
    'deliveryStatus',
    'nextAttemptAt',
    'deliveredAt',
    'referralId',
    'duplicateOf',
    'possibleRetake',
    'consentedAt',
    'consentLanguage',
    'consentSurveyVersion',
    'consentText',
    'consentTextSha256',
    'utm',
    'hiddenFields',
  ],
};

const DAY_MS = 24 * 3600 * 1000;

/** A date filter: y-MM-dd (a whole day, UTC) or an ISO instant. `to` of a date covers that day. */
function parseInstant(value: string | undefined, name: 'from' | 'to'): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = dateOnly ? Date.parse(`${value}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw badRequest(`'${name}' must be a date (2026-01-31) or an ISO date-time.`, name);
  return new Date(dateOnly && name === 'to' ? at + DAY_MS : at);
}

function parseIdFilter(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const id = parseId(value);
  if (id === null) throw badRequest(`'${name}' must be an id.`, name);
  return id;
}

/** The list's filters from a query string; anything malformed is a 400 naming it. */
function parseFilters(filters: Partial<Record<(typeof RMS_AUDIT_FILTERS)[number] | 'searchQuery', string>>): AuditFilters {
  const status = filters.status;
  if (status !== undefined && status !== '' && !(RMS_DELIVERY_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(`'status' must be one of ${RMS_DELIVERY_STATUSES.join(', ')}.`, 'status');
  }
  return {
    contactId: parseIdFilter(filters.contactId, 'contactId'),
    succeeded: parseBooleanFilter(filters.succeeded, 'succeeded'),
    status: status ? (status as RmsDeliveryStatus) : undefined,
    rmsProviderId: parseIdFilter(filters.rmsProviderId, 'rmsProviderId'),
    engagementId: parseIdFilter(filters.engagementId, 'engagementId'),
    from: parseInstant(filters.from, 'from'),
    to: parseInstant(filters.to, 'to'),
    searchQuery: filters.searchQuery,
  };
}

function auditResource(row: RmsAuditRow | AuditListRow, withProvider: boolean, fields: Set<string> | null = null): Resource {
  const { id, ...attributes } = row;
  return toResource(RMS_AUDIT_TYPE, id, plain(attributes), {
    fields,
    relationships: withProvider
      ? { [INCLUDE_PROVIDERS]: { data: row.rmsProviderId ? { type: RMS_PROVIDER_TYPE, id: String(row.rmsProviderId) } : null } }
      : undefined,
  });
}

async function providerResources(deps: Deps, rows: RmsAuditRow[]): Promise<Resource[]> {
  const ids = [...new Set(rows.map((r) => r.rmsProviderId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return [];
  const found = await deps.db
    .select({ id: rmsProviders.id, name: rmsProviders.name, kind: rmsProviders.kind })
    .from(rmsProviders)
    .where(inArray(rmsProviders.id, ids));
  // Name and kind only: the endpoint and the secrets stay on the server.
  return found.map((p) => toResource(RMS_PROVIDER_TYPE, p.id, { name: p.name, kind: p.kind }));
}

export function rmsAuditsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.get('/', describe({ summary: 'List record-system deliveries (RMS audits)', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const { rows, total } = await listAudits(deps.db, parseFilters(q.filters), q);
    const withProviders = q.include.has(INCLUDE_PROVIDERS);
    const included = withProviders ? await providerResources(deps, rows) : undefined;
    return sendList(c, rows.map((r) => auditResource(r, withProviders, q.fields)), { total, page: q.page, limit: q.limit }, included);
  });

  return app;
}

/** The list's filters from a bulk resend's query string: any other parameter is a 400. */
function bulkFilters(params: URLSearchParams) {
  const known = new Set<string>([...RMS_AUDIT_FILTERS, 'searchQuery']);
  const filters: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!known.has(name)) throw badRequest(`Unknown filter '${name}'.`, name);
    filters[name] = value;
  }
  return parseFilters(filters);
}

/**
 * POST /api/resend-rms-audit/{contactId}: deliver again now and answer that attempt's audit
 * (`?again=true` to send an already delivered referral a second time). POST
 * /api/resend-rms-audit with the list's filters: every undelivered contact they show is due now.
 */
export function resendRmsAuditRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.post('/', describe({ summary: 'Resend record-system deliveries' }), async (c) => {
    // Only undelivered contacts are re-queued, whatever status the list was showing.
    const { status: _status, ...filters } = bulkFilters(new URL(c.req.url).searchParams);
    const options = deliveryOptionsOf(deps);
    const queued = await requeueUndelivered(deps.db, filters, options.clock());
    // Attempted here at once; other processes' workers take their share as they find them due.
    if (queued > 0) deliverAllSoon(options);
    c.set('audit', { entity: 'rms-audits', entityId: null, action: 'rms-resend-bulk', meta: { queued, filters: Object.fromEntries(new URL(c.req.url).searchParams) } });
    return sendDocument(c, { meta: { queued } });
  });

  app.post('/:contactId', describe({ summary: "Resend one contact's record-system delivery", answer: { resource: null, status: 201 } }), async (c) => {
    const contactId = parseId(c.req.param('contactId'));
    const again = parseBooleanFilter(c.req.query('again'), 'again') ?? false;
    const outcome = contactId === null ? ({ kind: 'missing' } as const) : await resend(deliveryOptionsOf(deps), contactId, again);
    if (outcome.kind === 'missing' || contactId === null) throw notFound('contact');
    if (outcome.kind === 'duplicate') throw conflict(RESEND_MESSAGES.duplicate(contactId, outcome.duplicateOf));
    if (outcome.kind === 'delivered') throw conflict(RESEND_MESSAGES.alreadyDelivered(contactId, outcome.deliveredAt?.toISOString() ?? null));
    if (outcome.kind === 'busy') throw conflict(RESEND_MESSAGES.busy(contactId));
    const { audit } = outcome;
    // Ids and outcome only: the record system's answer may echo the participant's details.
    c.set('audit', {
      entity: 'contacts',
      entityId: contactId,
      action: 'rms-resend',
      meta: { succeeded: audit.succeeded, rmsAuditId: audit.id, rmsProviderId: audit.rmsProviderId, again: outcome.alreadyDelivered },
    });
    const document = {
      data: auditResource(audit, true),
      included: await providerResources(deps, [audit]),
      meta: { succeeded: audit.succeeded },
    };
    return sendDocument(c, document, 201);
  });

  return app;
}

async function rawJson(c: { req: { header(name: string): string | undefined; text(): Promise<string> } }, types: RegExp) {
  if (!types.test(c.req.header('content-type') ?? '')) throw unsupportedMediaType();
  // The signature covers these exact bytes, so the raw text is kept as received.
  const raw = await c.req.text();
  try {
    return { raw, body: JSON.parse(raw) as unknown };
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

const REFUSED = 'The signature or token is missing or does not match.';

/** POST /api/rms-callback (JSON, Standard Webhooks signed) and /api/rms-callback/fhir/{providerId} (FHIR ResearchSubject). */
export function rmsCallbackRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const now = () => nowOf(deps);

  app.post('/', describe({ summary: "Record system: report a referral's status", access: 'public', body: { json: RmsCallbackInput } }), async (c) => {
    const { raw, body } = await rawJson(c, /^application\/(vnd\.api\+)?json\b/i);
    const parsed = v.safeParse(RmsCallbackInput, body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const { contactId, screened, randomized } = parsed.output;
    if (!(await verifySignedCallback(db, phiOf(deps), contactId, (name) => c.req.header(name), raw, now()))) throw unauthorized(REFUSED);
    const referral = await applyReferralStatus(db, contactId, { screened, randomized });
    if (!referral) throw notFound('referral');
    return sendResource(
      c,
      toResource('referrals', referral.id, { contactId, engagementId: referral.engagementId, isScreened: referral.isScreened, isRandomized: referral.isRandomized }),
    );
  });

  app.post('/fhir/:providerId', describe({ summary: "Record system (FHIR): report a ResearchSubject's status", access: 'public', body: { json: ResearchSubjectUpdate } }), async (c) => {
    const providerId = parseId(c.req.param('providerId'));
    const { raw, body } = await rawJson(c, /^application\/(fhir\+)?json\b/i);
    const parsed = v.safeParse(ResearchSubjectUpdate, body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const referralKey = referralKeyOf(parsed.output);
    if (!referralKey) throw invalid([{ pointer: '/identifier', detail: 'The ResearchSubject needs the referral identifier (system urn:ietf:rfc:3986, value urn:uuid:<referralId>).' }]);
    const contactId =
      providerId === null ? null : await authenticFhirCallback(db, phiOf(deps), providerId, referralKey, (name) => c.req.header(name), raw, now());
    if (contactId === null) throw unauthorized(REFUSED);
    const referral = await applyReferralStatus(db, contactId, FHIR_SUBJECT_STATUSES[parsed.output.status]);
    if (!referral) throw notFound('referral');
    const state = referral.isRandomized ? 'randomized' : referral.isScreened ? 'screened' : 'referred';
    return c.body(
      JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', diagnostics: `Referral ${referralKey} is ${state}.` }] }),
      200,
      { 'Content-Type': FHIR_CONTENT_TYPE },
    );
  });

  return app;
}
