/**
 * The admin's preview of a lead's form: the channel preview lets staff choose the outcome
 * (notQualified, noTrialSites, notActive) a run of the survey ends at, and shows that outcome's
 * form as a participant reads it: the screener's contact fields and the outcome's message pair
 * in the language previewed (messages.ts's own fallbacks). Sent, the form is checked as a lead
 * is and answered with the same thanks; nothing is stored, no submission and no lead.
 */
import type { FieldIssue } from '@core/model/fields';
import type { LeadKind } from '@core/model/lead';
import type { OutcomeMessages } from '@core/participant/responses';
import { message } from '@core/validation/messages';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { Invalid, NotFound } from '../errors';
import { normalizeZip, outcomeMessages, participantPlace, screenerContactFields } from '../participant';
import { findScreener } from '../screeners';
import { findForm } from '../surveys';
import { checkLeadContact, leadKeptMessage } from './keep';

export interface LeadPreviewRequest {
  kind: LeadKind;
  screenerId: number;
  oFormId: number | null;
  language: string;
}

/** The form of `kind` for a screener (and survey version) the user may see; else NotFound. */
export async function leadPreviewForm(db: Db, user: AuthUser, request: LeadPreviewRequest) {
  const screener = await findScreener(db, request.screenerId, user);
  if (!screener) throw new NotFound('screener');
  const form = request.oFormId === null ? null : await findForm(db, request.oFormId, user);
  if (request.oFormId !== null && !form) throw new NotFound('survey');
  const fields = await screenerContactFields(db, screener.id);
  const messages: OutcomeMessages = await outcomeMessages(db, screener.id, request.kind, request.language, form?.id ?? null);
  return { kind: request.kind, fields, messages };
}

/** The previewed form as sent: its problems (an Invalid, as a lead's), else the thanks a kept lead shows. Writes nothing. */
export async function checkLeadPreview(
  db: Db,
  user: AuthUser,
  request: LeadPreviewRequest & { values: Record<string, unknown>; acceptTerms?: unknown; zip: string | null },
): Promise<{ kind: LeadKind; messages: OutcomeMessages }> {
  const form = await leadPreviewForm(db, user, request);
  checkLeadContact(form.fields, { values: request.values, acceptTerms: request.acceptTerms }, request.language);
  // A ZIP typed in a notQualified or notActive form must be one we can place, as in a run.
  const given = request.zip === null || request.zip === '' ? null : request.zip;
  if (given !== null && !participantPlace(null, normalizeZip(given))) {
    const issue: FieldIssue = { pointer: '/data/attributes/zip', detail: message('zip_unknown', {}, request.language) };
    throw new Invalid([issue]);
  }
  return { kind: form.kind, messages: { contactForm: leadKeptMessage(request.language), consent: '' } };
}
