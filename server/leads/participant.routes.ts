/**
 * The participant's side of leads (docs/participant-api.md), opened by the submission's access
 * token like the contact steps:
 *   POST /api/o-forms/o-form-submission-lead-fields/:submissionId  the contact form and the outcome's message pair
 *        (the place in the body; GET with ?zip= answers the same)
 *   POST /api/o-forms/o-form-submission-lead/:submissionId                 keeps the lead (keep.ts)
 */
import { LeadAttributes, SiteSearchAttributes } from '@core/participant/requests';
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import { CONTACT_FIELD_TYPE } from '@core/model/contactField';
import type { ParticipantAnswer } from '@core/participant/responses';
import { nowOf, type Deps } from '../context';
import { sendDocument, toResource } from '../http/serialize';
import { MISSING_CONTACT_TOKEN, openSubmission, PLACE_QUERY, type ParticipantApp, participantCall } from '../participant';
import { parseParams } from '../http/params';
import { contactMatcherOf } from '../security/contactMatch';
import { phiOf } from '../security/phi';
import { keepLead, leadForm, type LeadTools } from './keep';

const toolsOf = (deps: Deps): LeadTools => ({ db: deps.db, now: nowOf(deps), phi: phiOf(deps), matcher: contactMatcherOf(deps) });

/** Where the sites were searched (noTrialSites): read as the sites' own query reads it. */
const LEAD_PLACE_QUERY = {
  zip: { ...PLACE_QUERY.zip, description: 'The ZIP code the sites were searched for (noTrialSites); with country, the postal code or town.' },
  country: { ...PLACE_QUERY.country, description: 'Outside the US: the ISO country code the sites were searched in.' },
};

export function participantLeadRoutes(app: ParticipantApp, deps: Deps) {
  /** The lead's form for the place the sites were searched for (`read`: the body's or the query's). */
  const leadFields = async <E extends AppEnv>(c: Context<E>, read: () => Promise<{ zip?: string; country?: string }> | { zip?: string; country?: string }) => {
    const submission = await openSubmission(deps, c);
    const { zip, country } = await read();
    const form = await leadForm(toolsOf(deps), submission, zip, country);
    const data = form.fields.map((f) =>
      toResource(CONTACT_FIELD_TYPE, f.id, { name: f.name, label: f.label, fieldType: f.fieldType, required: f.required, translations: f.translations }),
    );
    c.header('Cache-Control', 'no-store');
    return sendDocument(c, { data, meta: { outcome: form.kind, messages: form.messages } satisfies ParticipantAnswer<'leadFields'>['meta'] });
  };
  const summary = "Participant: the lead's contact form at notQualified, noTrialSites or notActive";
  // The widget POSTs the place in the body with the token (no ZIP in an address, no preflight).
  app.post(
    '/o-form-submission-lead-fields/:submissionId',
    participantCall({
      summary,
      access: 'participant',
      attributes: SiteSearchAttributes,
      answer: 'leadFields',
    }),
    (c) =>
      leadFields(c, async () => {
        // No ZIP typed (the lead of a run that never searched) is as none sent.
        const { zip, country } = await c.var.body.read();
        return { zip: zip || undefined, country };
      }),
  );
  app.get(
    '/o-form-submission-lead-fields/:submissionId',
    participantCall({
      summary,
      access: 'participant',
      query: LEAD_PLACE_QUERY,
      answer: 'leadFields',
    }),
    (c) => leadFields(c, () => parseParams(LEAD_PLACE_QUERY, (name) => c.req.query(name))),
  );

  app.post(
    '/o-form-submission-lead/:submissionId',
    participantCall({
      summary: 'Participant: leave contact details and consent at notQualified, noTrialSites or notActive',
      access: 'participant',
      attributes: LeadAttributes,
      answer: 'lead',
      status: 201,
    }),
    async (c) => {
      const submission = await openSubmission(deps, c, MISSING_CONTACT_TOKEN);
      const attributes = await c.var.body.read();
      const kept = await keepLead(toolsOf(deps), submission, {
        values: attributes.values,
        acceptTerms: attributes.acceptTerms,
        zip: attributes.zip,
        country: attributes.country,
      });
      return sendDocument(c, { meta: { outcome: kept.kind, leadKept: true, messages: kept.messages } } satisfies ParticipantAnswer<'lead'>, 201);
    },
  );
}
