/**
 * Keeping a lead: what a participant leaves at notQualified, noTrialSites or notActive. The
 * outcome is the server's own reading of the run (never the client's word): the survey or its
 * channel no longer runs (notActive), the complete path qualifies for no engagement
 * (notQualified), or it qualifies but the ZIP given reaches no site (noTrialSites). The contact
 * is checked like a referral's (core/survey/contact.ts), sealed, duplicate-checked with the same
 * keyed hashes, and kept with the consent exactly as shown; nothing is sent anywhere.
 */
import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { fallbackIsoCode } from '@core/i18n';
import type { FieldIssue } from '@core/model/fields';
import type { LeadKind } from '@core/model/lead';
import { ACCEPT_TERMS, checkContact, contactValues, type ContactFormField } from '@core/survey/contact';
import type { OutcomeMessages } from '@core/participant/responses';
import { message } from '@core/validation/messages';
import type { Db } from '../db/open';
import { engagementScreeners, leads } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import type { SubmissionRow } from '../participant';
import { assertComplete, RUN_ALREADY_COMPLETE, screenerContactFields } from '../participant';
import { matchKeysOf } from '../participant';
import { COUNTRY_CODE, normalizeCountry, normalizeZip, participantPlace, regionOfChannel } from '../participant';
import { isPostalCode } from '@core/validation/rules';
import { outcomeMessages } from '../participant';
import { qualify } from '../participant';
import { runEngagements, runOfSubmission, type RunTarget } from '../participant';
import { nearestSiteMiles, nearestSites } from '../participant';
import type { ContactMatcher } from '../security/contactMatch';
import type { PhiCipher } from '../security/phi';
import { firstLeadOf } from './duplicates';

export const NOT_A_LEAD_OUTCOME = 'Study sites are within reach of this ZIP code: choose one to leave your contact details for it.';
export const LEAD_ALREADY_KEPT = 'Contact details were already left for this survey run.';
export const ZIP_FOR_NO_SITES = 'Give the ZIP code the study sites were searched for.';
/** A postal code or a town as typed: longer is no place anyone lives. */
const MAX_PLACE_LENGTH = 100;

/** What the participant reads once the lead is kept (the widget shows the answer's messages), by language; English the fallback. */
const LEAD_KEPT: Record<string, string> = {
  en: '<p>Thank you. Your details are kept and we may contact you.</p>',
  es: '<p>Gracias. Guardamos sus datos y es posible que le contactemos.</p>',
};
export const leadKeptMessage = (language: string): string => LEAD_KEPT[fallbackIsoCode(language)] ?? LEAD_KEPT.en!;

export interface LeadTools {
  db: Db;
  now: Date;
  phi: PhiCipher;
  matcher: ContactMatcher;
}

/** The lead's outcome for a run, with the engagements it is kept for and the ZIP's distance context. */
interface LeadOutcome {
  kind: LeadKind;
  engagementIds: number[];
  zip: string | null;
  /** The ISO country the ZIP (then a postal code or a town) is in; null for a US ZIP code. */
  country: string | null;
  nearestSiteMiles: number | null;
}

/**
 * Which lead a run may leave, read from the server's data. A qualified run is a noTrialSites
 * lead only for a ZIP that reaches no site; without a ZIP it has none (its contact is a referral's).
 */
async function leadOutcome(
  tools: LeadTools,
  submission: SubmissionRow,
  rawZip: unknown,
  rawCountry: unknown,
): Promise<LeadOutcome | { issue: FieldIssue } | null> {
  const { db, now, phi } = tools;
  const target = await runOfSubmission(db, submission);
  const qualification = await qualify(db, submission, { today: now, phi });
  assertComplete(qualification);
  const given = rawZip === undefined || rawZip === null || rawZip === '' ? null : rawZip;
  // Outside the US the site step sends a country with a postal code or a town (participant/places.ts).
  const country = rawCountry === undefined || rawCountry === null || rawCountry === '' ? null : normalizeCountry(rawCountry);
  if (country === null && rawCountry !== undefined && rawCountry !== null && rawCountry !== '')
    return { issue: { pointer: '/data/attributes/country', detail: COUNTRY_CODE } };
  const place = country === null || given === null ? null : String(given).trim().slice(0, MAX_PLACE_LENGTH);
  const zip = country === null ? (given === null ? null : normalizeZip(given)) : place;
  const from = zip === null ? null : participantPlace(country, zip);
  // Abroad a postal code of the country's shape is kept without a distance where no table places it
  // (participant/places.ts: Canada's do; Britain's do not); what is neither a known place nor one is refused.
  const unplaced = zip !== null && country !== null && isPostalCode(zip, country);
  if (given !== null && !from && !unplaced) {
    return { issue: { pointer: '/data/attributes/zip', detail: message(country === null ? 'zip_unknown' : 'postal', {}, submission.language) } };
  }
  if (qualification.isQualified) {
    if (!from) return { issue: { pointer: '/data/attributes/zip', detail: ZIP_FOR_NO_SITES } };
    if ((await nearestSites(db, qualification.engagementIds, from, now)).length > 0) return null;
    return {
      kind: 'noTrialSites',
      engagementIds: qualification.engagementIds,
      zip,
      country,
      nearestSiteMiles: await nearestSiteMiles(db, qualification.engagementIds, from),
    };
  }
  // Kept for the screener's engagements even when switched off: they are what the lead is for.
  const engagementIds = qualification.outcome === 'notActive' ? await screenerEngagements(db, target.screenerId, target) : await runEngagements(db, target);
  const kind: LeadKind = qualification.outcome === 'notActive' ? 'notActive' : 'notQualified';
  return { kind, engagementIds, zip, country, nearestSiteMiles: from ? await nearestSiteMiles(db, engagementIds, from) : null };
}

/** The screener's engagements, active or not (else the survey's own engagement). */
async function screenerEngagements(db: Db, screenerId: number | null, target: RunTarget): Promise<number[]> {
  if (screenerId === null) return target.form ? [target.form.engagementId] : [];
  const rows = await db
    .select({ id: engagementScreeners.engagementId })
    .from(engagementScreeners)
    .where(eq(engagementScreeners.screenerId, screenerId))
    .orderBy(asc(engagementScreeners.engagementId));
  return rows.map((r) => r.id);
}

/**
 * The distance context of a lead whose outcome searched no sites (notQualified, notActive, no
 * ZIP sent): the ZIP among the contact values the screener asks (a postal code of the channel's
 * `region`, as the field's check took it), with the miles to the nearest active site of the
 * lead's engagements where it is placed, by the site search's own lookup. Context only: a code
 * we cannot place is kept without a distance, never refused, since the contact field's own check passed.
 */
async function contactZipContext(
  db: Db,
  fields: readonly ContactFormField[],
  values: Record<string, unknown>,
  engagementIds: number[],
  region: string,
): Promise<{ zip: string | null; country: string | null; nearestSiteMiles: number | null }> {
  const field = fields.find((f) => f.fieldType === 'zip');
  const value = field ? values[field.name] : undefined;
  const country = region === 'US' ? null : region;
  const zip = country === null ? normalizeZip(value) : typeof value === 'string' && isPostalCode(value, country) ? value : null;
  if (zip === null) return { zip: null, country: null, nearestSiteMiles: null };
  const from = participantPlace(country, zip);
  return { zip, country, nearestSiteMiles: from ? await nearestSiteMiles(db, engagementIds, from) : null };
}

/** The screener's contact form and the lead's message pair, for the run's lead outcome. */
export async function leadForm(tools: LeadTools, submission: SubmissionRow, zip: unknown, country?: unknown) {
  if (submission.status === 'completed') throw new Conflict(RUN_ALREADY_COMPLETE);
  const outcome = await leadOutcome(tools, submission, zip, country);
  if (outcome === null) throw new Conflict(NOT_A_LEAD_OUTCOME);
  if ('issue' in outcome) throw new Invalid([outcome.issue]);
  const target = await runOfSubmission(tools.db, submission);
  const fields = await screenerContactFields(tools.db, target.screenerId);
  const messages: OutcomeMessages = await outcomeMessages(tools.db, target.screenerId, outcome.kind, submission.language, submission.oFormId);
  return {
    kind: outcome.kind,
    fields,
    messages,
    screenerId: target.screenerId,
    surveyVersion: target.form?.version ?? null,
    outcome,
    region: regionOfChannel(target.channel),
  };
}

/**
 * A lead's form as sent, checked as a referral's contact is: each problem at its pointer (an
 * Invalid), else the fields the values are read with.
 */
export function checkLeadContact(
  formFields: readonly ContactFormField[],
  input: Pick<LeadInput, 'values' | 'acceptTerms'>,
  language: string,
  region?: string,
): ContactFormField[] {
  const fields: ContactFormField[] = formFields.map((f) => ({ name: f.name, fieldType: f.fieldType, required: f.required }));
  const issues: FieldIssue[] = Object.entries(checkContact(fields, input.values, input.acceptTerms, language, region)).map(([name, detail]) => ({
    pointer: name === ACCEPT_TERMS ? '/data/attributes/acceptTerms' : `/data/attributes/values/${name}`,
    detail,
  }));
  if (issues.length > 0) throw new Invalid(issues);
  return fields;
}

export interface LeadInput {
  values: Record<string, unknown>;
  acceptTerms: unknown;
  zip?: unknown;
  country?: unknown;
}

/** Checks and keeps the lead of a run; answers its kind, whether it repeats an earlier lead, and the thanks to show. */
export async function keepLead(
  tools: LeadTools,
  submission: SubmissionRow,
  input: LeadInput,
): Promise<{ id: number; kind: LeadKind; duplicateOf: number | null; messages: OutcomeMessages }> {
  const { db, now, phi, matcher } = tools;
  const form = await leadForm(tools, submission, input.zip, input.country);
  const fields = checkLeadContact(form.fields, input, submission.language, form.region);

  const values = contactValues(fields, input.values);
  const keys = matchKeysOf(matcher, fields, values);
  const place = form.outcome.zip === null ? await contactZipContext(db, fields, values, form.outcome.engagementIds, form.region) : form.outcome;
  // The consent as the lead's form showed it, kept word for word with its hash.
  const consentText = form.messages.consent ?? '';
  const kept = await db.transaction(async (tx) => {
    const first = await firstLeadOf(tx, form.outcome.engagementIds, keys);
    const [row] = await tx
      .insert(leads)
      .values({
        kind: form.kind,
        submissionId: submission.id,
        engagementIds: form.outcome.engagementIds,
        screenerId: form.screenerId,
        mediaChannelId: submission.mediaChannelId,
        language: submission.language,
        valuesCiphertext: phi.seal(JSON.stringify(values)),
        zipCiphertext: place.zip === null ? null : phi.seal(place.zip),
        country: place.country,
        nearestSiteMiles: place.nearestSiteMiles,
        consentedAt: now,
        consentText,
        consentTextSha256: createHash('sha256').update(consentText, 'utf8').digest('hex'),
        surveyId: submission.oFormId,
        surveyVersion: form.surveyVersion,
        ...keys,
        duplicateOf: first,
        created: now,
      })
      .onConflictDoNothing()
      .returning({ id: leads.id });
    if (!row) throw new Conflict(LEAD_ALREADY_KEPT);
    return { id: row.id, duplicateOf: first };
  });
  return { ...kept, kind: form.kind, messages: { contactForm: leadKeptMessage(submission.language), consent: '' } };
}
