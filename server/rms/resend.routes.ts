import { Hono } from 'hono';
import { RESEND_MESSAGES, RMS_AUDIT_ATTEMPT, RmsResendQueuedDocument } from '@core/model/rmsAudit';
import type { AppEnv, Deps } from '../context';
import { authenticate, requireRole } from '../auth/guards';
import { conflict, notFound } from '../http/errors';
import { parseId } from '../http/query';
import { sendDocument } from '../http/serialize';
import { booleanParam } from '../http/params';
import { AUDIT_FILTERS, auditResource, providerResources } from './audits';
import { deliveryOptionsOf, resend, resendUndelivered } from './worker';
import { describe } from '../openapi/describe';

const RESEND_QUERY = { again: { ...booleanParam, description: 'true: send an already delivered referral a second time.' } };

/**
 * POST /api/resend-rms-audit/{contactId}: deliver again now and answer that attempt's audit
 * (`?again=true` to send an already delivered referral a second time). POST
 * /api/resend-rms-audit with the list's filters: every undelivered contact they show is due now.
 */
export function resendRmsAuditRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps), requireRole('Super User'));

  app.post('/', describe({ summary: 'Resend record-system deliveries', query: AUDIT_FILTERS, answer: { document: RmsResendQueuedDocument } }), async (c) => {
    // Only undelivered contacts are re-queued, whatever status the list was showing.
    const { status: _status, ...filters } = c.var.query;
    const queued = await resendUndelivered(deliveryOptionsOf(deps), filters);
    c.set('audit', {
      entity: 'rms-audits',
      entityId: null,
      action: 'rms-resend-bulk',
      meta: { queued, filters: Object.fromEntries(new URL(c.req.url).searchParams) },
    });
    return sendDocument(c, { meta: { queued } });
  });

  const resendOne = describe({
    summary: "Resend one contact's record-system delivery",
    query: RESEND_QUERY,
    answer: { resource: RMS_AUDIT_ATTEMPT, status: 201 },
  });
  app.post('/:contactId', resendOne, async (c) => {
    const contactId = parseId(c.req.param('contactId'));
    const again = c.var.query.again ?? false;
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
      included: await providerResources(deps.db, [audit]),
      meta: { succeeded: audit.succeeded },
    };
    return sendDocument(c, document, 201);
  });

  return app;
}
