/**
 * The record system, staff side: the audit list and the resend action (Super User only), and
 * the signed callback by which the record system reports a referral screened or randomized.
 *
 * The callback is public but signed: `X-Signature: sha256=<hex>` of the raw body under the
 * signing secret of the contact's engagement's provider. Any doubt about it (unknown contact, a
 * provider without a secret, a wrong signature) answers the same 401 and writes nothing, so
 * it tells an outsider nothing about which contacts exist.
 */
import { Hono } from 'hono';
import { and, eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import type { Resource } from '../../core/jsonapi';
import { toFieldIssues } from '../../core/model/fields';
import {
  RMS_AUDIT_DEFAULT_SORT,
  RMS_AUDIT_SORTS,
  RMS_AUDIT_TYPE,
  RMS_PROVIDER_TYPE,
  RmsCallbackInput,
} from '../../core/model/rmsAudit';
import type { AppEnv, Deps } from '../context';
import { contacts, engagements, referrals, rmsAudits, rmsProviders } from '../db/schema';
import { authenticate, requireRole } from '../auth/guards';
import { badRequest, invalid, notFound, unauthorized, unsupportedMediaType } from '../http/errors';
import { tablePage } from '../http/list';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { plain, sendDocument, sendList, sendResource, toResource } from '../http/serialize';
import { ilikeAny } from '../http/sql';
import { pushContact, pushOptionsOf, type RmsAuditRow } from '../rms/push';
import { SIGNATURE_HEADER, verifySignature } from '../rms/signature';

const INCLUDE_PROVIDERS = 'rmsProviders';
const listSpec: ListSpec<(typeof RMS_AUDIT_SORTS)[number], 'contactId' | 'succeeded' | 'searchQuery'> = {
  type: RMS_AUDIT_TYPE,
  sorts: RMS_AUDIT_SORTS,
  defaultSort: RMS_AUDIT_DEFAULT_SORT,
  includes: [INCLUDE_PROVIDERS],
  filters: ['contactId', 'succeeded', 'searchQuery'],
};
const sorts = {
  created: rmsAudits.created,
  contactId: rmsAudits.contactId,
  rmsProviderName: rmsAudits.rmsProviderName,
  succeeded: rmsAudits.succeeded,
};

function auditResource(row: RmsAuditRow, withProvider: boolean): Resource {
  const { id, ...attributes } = row;
  return toResource(RMS_AUDIT_TYPE, id, plain(attributes), {
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
  // Name and kind only: the endpoint and the signing secret stay on the server.
  return found.map((p) => toResource(RMS_PROVIDER_TYPE, p.id, { name: p.name, kind: p.kind }));
}

export function rmsAuditsRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.get('/', async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const contactFilter = q.filters.contactId;
    const contactId = contactFilter === undefined || contactFilter === '' ? undefined : parseId(contactFilter);
    if (contactId === null) throw badRequest("'contactId' must be a contact id.", 'contactId');
    const succeeded = q.filters.succeeded;
    if (succeeded !== undefined && succeeded !== '' && succeeded !== 'true' && succeeded !== 'false') {
      throw badRequest("'succeeded' must be true or false.", 'succeeded');
    }
    const where = and(
      contactId !== undefined ? eq(rmsAudits.contactId, contactId) : undefined,
      succeeded === 'true' || succeeded === 'false' ? eq(rmsAudits.succeeded, succeeded === 'true') : undefined,
      q.filters.searchQuery?.trim() ? ilikeAny([rmsAudits.rmsProviderName, rmsAudits.responseMessage], q.filters.searchQuery) : undefined,
    );
    const { rows, total } = await tablePage(deps.db, rmsAudits, q, { where, sorts, id: rmsAudits.id });
    const withProviders = q.include.has(INCLUDE_PROVIDERS);
    const included = withProviders ? await providerResources(deps, rows) : undefined;
    return sendList(c, rows.map((r) => auditResource(r, withProviders)), { total, page: q.page, limit: q.limit }, included);
  });

  return app;
}

/** POST /api/resend-rms-audit/{contactId}: push again now and answer the last attempt's audit. */
export function resendRmsAuditRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.post('/:contactId', async (c) => {
    const contactId = parseId(c.req.param('contactId'));
    const audits = contactId === null ? null : await pushContact(deps.db, contactId, pushOptionsOf(deps));
    const last = audits?.at(-1);
    if (!audits || !last) throw notFound('contact');
    // Ids and outcome only: the record system's answer may echo the participant's details.
    c.set('audit', {
      entity: 'contacts',
      entityId: contactId,
      action: 'rms-resend',
      meta: { attempts: audits.length, succeeded: last.succeeded, rmsAuditIds: audits.map((a) => a.id), rmsProviderId: last.rmsProviderId },
    });
    const document = {
      data: auditResource(last, true),
      included: await providerResources(deps, [last]),
      meta: { attempts: audits.length, succeeded: last.succeeded },
    };
    return sendDocument(c, document, 201);
  });

  return app;
}

/** POST /api/rms-callback: the record system reports what became of a referral. */
export function rmsCallbackRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    if (!/^application\/(vnd\.api\+)?json\b/i.test(c.req.header('content-type') ?? '')) throw unsupportedMediaType();
    // The signature covers these exact bytes, so the raw text is kept as received.
    const raw = await c.req.text();
    let body: unknown;
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      throw badRequest('The request body is not valid JSON.');
    }
    const parsed = v.safeParse(RmsCallbackInput, body);
    if (!parsed.success) throw invalid(toFieldIssues(parsed.issues, ''));
    const { contactId, screened, randomized } = parsed.output;

    const [found] = await db
      .select({ contactId: contacts.id, secret: rmsProviders.signingSecret })
      .from(contacts)
      .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
      .leftJoin(rmsProviders, eq(rmsProviders.id, engagements.rmsProviderId))
      .where(eq(contacts.id, contactId));
    if (!found?.secret || !verifySignature(c.req.header(SIGNATURE_HEADER), raw, found.secret)) {
      throw unauthorized('The signature is missing or does not match.');
    }

    // A randomized participant was screened first.
    const isScreened = randomized === true ? true : screened;
    const changes = {
      ...(isScreened !== undefined ? { isScreened } : {}),
      ...(randomized !== undefined ? { isRandomized: randomized } : {}),
    };
    const [referral] = Object.keys(changes).length
      ? await db.update(referrals).set(changes).where(eq(referrals.contactId, contactId)).returning()
      : await db.select().from(referrals).where(eq(referrals.contactId, contactId));
    if (!referral) throw notFound('referral');
    return sendResource(
      c,
      toResource('referrals', referral.id, {
        contactId,
        engagementId: referral.engagementId,
        isScreened: referral.isScreened,
        isRandomized: referral.isRandomized,
      }),
    );
  });

  return app;
}
