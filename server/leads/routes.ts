/**
 * The `leads` resource (staff): GET /api/leads (filters in the query, CSV through the list kit),
 * GET /api/leads/:id, POST /api/leads/:id/reveal (the contact values, an audit event of its
 * own), DELETE /api/leads/:id (erasure on request, Admin and Super User). Every call keeps to
 * the user's sponsors (list.ts leadScope); outside it a lead is a 404.
 * The admin's preview of a lead's form (preview.ts), storing nothing: POST /api/leads/preview-form
 * (the form, as the participant route answers it) and POST /api/leads/preview (the form as sent).
 */
import { Hono } from 'hono';
import { LEAD, LEAD_DEFAULT_SORT, LEAD_PREVIEW_TYPE, LEAD_TYPE, LeadPreviewInput, LeadRevealedDocument, type Lead } from '@core/model/lead';
import { CONTACT_FIELD_TYPE } from '@core/model/contactField';
import { PARTICIPANT_ANSWERS, LeadPreviewedDocument, type ParticipantAnswer } from '@core/participant/responses';
import type { AppEnv, Deps } from '../context';
import { authenticate, requireRole, STAFF_ADMIN_ROLES } from '../auth/guards';
import { notFound } from '../http/errors';
import { parseId, type ListSpec } from '../http/query';
import { memberRead } from '../http/memberRead';
import { rowAtPath } from '../http/pathRow';
import { answerRows } from '../http/listAnswer';
import { sendDocument, toResource } from '../http/serialize';
import { phiOf } from '../security/phi';
import { describe } from '../openapi/describe';
import { eraseLead, findLead, LEAD_LIST_FILTERS, LEAD_SORT_FIELDS, listLeads, revealLead } from './list';
import { checkLeadPreview, leadPreviewForm } from './preview';

const listSpec: ListSpec<(typeof LEAD_SORT_FIELDS)[number], typeof LEAD_LIST_FILTERS> = {
  type: LEAD_TYPE,
  sorts: LEAD_SORT_FIELDS,
  defaultSort: LEAD_DEFAULT_SORT,
  filters: LEAD_LIST_FILTERS,
  fields: LEAD.names,
};

const resourceOf = ({ id, ...attributes }: Lead, fields: Set<string> | null = null) => toResource(LEAD_TYPE, id, attributes, { fields });

export function leadsRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List leads (contacts kept at notQualified, noTrialSites, notActive)', list: listSpec, answer: { list: LEAD } }), (c) =>
    answerRows(c, listSpec, (q) => listLeads(db, phiOf(deps), c.get('user'), q), resourceOf),
  );

  // The preview's body: a resource of its own type, so nobody mistakes it for a lead kept.
  const previewBody = { resource: LEAD_PREVIEW_TYPE, attributes: LeadPreviewInput };
  app.post(
    '/preview-form',
    describe({
      summary: "Preview: a lead's form at an outcome, as a participant reads it (nothing stored)",
      body: previewBody,
      answer: { document: PARTICIPANT_ANSWERS.leadFields },
    }),
    async (c) => {
      const { attributes } = await c.var.body.read();
      const form = await leadPreviewForm(db, c.get('user'), attributes);
      const data = form.fields.map((f) =>
        toResource(CONTACT_FIELD_TYPE, f.id, { name: f.name, label: f.label, fieldType: f.fieldType, required: f.required, translations: f.translations }),
      );
      return sendDocument(c, { data, meta: { outcome: form.kind, messages: form.messages } satisfies ParticipantAnswer<'leadFields'>['meta'] });
    },
  );
  app.post(
    '/preview',
    describe({
      summary: "Preview: a lead's form as sent, checked as a lead is; answers the thanks and stores nothing",
      body: previewBody,
      answer: { document: LeadPreviewedDocument },
    }),
    async (c) => {
      const { attributes } = await c.var.body.read();
      const checked = await checkLeadPreview(db, c.get('user'), attributes);
      return sendDocument(c, { meta: { outcome: checked.kind, leadKept: false, messages: checked.messages } });
    },
  );

  app.get(
    '/:id',
    describe({ summary: 'A lead', answer: { resource: LEAD } }),
    memberRead(null, 'lead', async (id, _q, user) => {
      const lead = await findLead(db, phiOf(deps), user, id);
      return lead ? { data: resourceOf(lead) } : null;
    }),
  );

  app.post(
    '/:id/reveal',
    describe({ summary: "A lead's contact values (recorded in the audit trail)", answer: { document: LeadRevealedDocument } }),
    async (c) => {
      const { id, row: values } = await rowAtPath(c, 'lead', (leadId) => revealLead(db, phiOf(deps), c.get('user'), leadId));
      // The event names the lead; the values it answered are never copied into the trail.
      c.set('audit', { entity: LEAD_TYPE, entityId: id, action: 'reveal' });
      c.header('Cache-Control', 'no-store');
      return sendDocument(c, { meta: { values } });
    },
  );

  app.delete('/:id', describe({ summary: 'Erase a lead on request' }), requireRole(...STAFF_ADMIN_ROLES), async (c) => {
    const id = parseId(c.req.param('id'));
    if (!(await eraseLead(db, c.get('user'), id))) throw notFound('lead');
    // Recorded as a note: the generic record of a deletion would copy the lead's ZIP into the trail.
    c.set('audit', { entity: LEAD_TYPE, entityId: id, action: 'erase' });
    return c.body(null, 204);
  });

  return app;
}
