/**
 * What a record system learns of a referral, gathered once from the database: the facts every
 * transport builds its body from (the webhook's JSON, the FHIR Bundle). New facts about a
 * referral (consent wording, attribution, hidden fields) are added here, in `ReferralFacts`
 * and `loadReferralFacts`, and reach every record system from this one place.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Utm } from '@core/participant/attribution';
import type { Db } from '../db/open';
import {
  contactFields,
  contacts,
  engagementSiteLocations,
  engagements,
  mediaChannels,
  oFormContainerEntries,
  oFormFieldEntries,
  oFormFields,
  oFormSubmissions,
  oForms,
  siteLocations,
} from '../db/schema';
import type { PhiCipher } from '../security/phi';
import { openAnswer } from '../participant/sealedAnswers';

export interface ReferralSite {
  engagementSiteLocationId: number;
  rmsSiteIdentification: string | null;
  siteId: string | null;
  name: string;
  address1: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
}

/** One screening answer: the question's stable identity and the value given (option values as stored). */
export interface ScreeningAnswer {
  questionIdentity: string;
  questionTitle: string;
  type: string;
  value: unknown;
}

export interface ReferralFacts {
  /** The idempotency key: the same in every attempt and every resend of this referral. */
  referralId: string;
  contactId: number;
  /** When the participant left their details. */
  created: string;
  engagement: { id: number; name: string; identification: string; protocolIdentifier: string | null; rmsSponsorIdentifier: string | null };
  site: ReferralSite | null;
  survey: { id: number; identity: string; version: number; title: string } | null;
  submissionId: number | null;
  screenerId: number | null;
  /** Where the participant came from: the media channel, the campaign parameters and the channel's hidden fields stored with the run. */
  attribution: { mediaChannelId: number | null; mediaChannelTitle: string | null; utm: Utm; hiddenFields: Record<string, string> };
  /**
   * The participant's agreement as given: when, in which language, the exact wording shown
   * (null for contacts stored before it was kept) with its SHA-256, and the survey version.
   */
  consent: {
    acceptedTerms: boolean;
    consentedAt: string | null;
    language: string;
    text: string | null;
    /** SHA-256 (hex) of `text` as stored. */
    textSha256: string | null;
    /** The approved survey version the participant answered. */
    surveyVersion: number | null;
  };
  /** Contact field name to the participant's value. */
  values: Record<string, unknown>;
  /** Contact field name to its type (email, phone, zip, date, text, checkbox). */
  valueTypes: Record<string, string>;
  answers: ScreeningAnswer[];
  /** A synthetic referral sent by "Send test"; receivers should not file it. */
  test: boolean;
}

/** The contact's values, decrypted. Throws PhiError when the stored value cannot be opened. */
export function openContactValues(phi: PhiCipher, sealed: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(phi.open(sealed));
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

async function screeningAnswers(db: Db, phi: PhiCipher, submissionId: number | null): Promise<ScreeningAnswer[]> {
  if (submissionId === null) return [];
  const rows = await db
    .select({ identity: oFormFields.identity, title: oFormFields.title, type: oFormFields.type, value: oFormFieldEntries.fieldValue, sealed: oFormFieldEntries.sealedValue })
    .from(oFormFieldEntries)
    .innerJoin(oFormContainerEntries, eq(oFormContainerEntries.id, oFormFieldEntries.containerEntryId))
    .innerJoin(oFormFields, eq(oFormFields.id, oFormFieldEntries.fieldId))
    .where(eq(oFormContainerEntries.submissionId, submissionId))
    .orderBy(asc(oFormFieldEntries.id));
  return rows.map((r) => ({ questionIdentity: r.identity, questionTitle: r.title, type: r.type, value: openAnswer(phi, r) }));
}

/**
 * The facts of contact `contactId`'s referral under key `referralId`, values decrypted; null
 * when there is no such contact. Throws PhiError when the values cannot be opened.
 */
export async function loadReferralFacts(db: Db, phi: PhiCipher, contactId: number, referralId: string): Promise<ReferralFacts | null> {
  const [found] = await db
    .select({ contact: contacts, engagement: engagements, survey: oForms, channel: { id: mediaChannels.id, title: mediaChannels.title }, utm: oFormSubmissions.utm, hiddenFields: oFormSubmissions.hiddenFields })
    .from(contacts)
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .leftJoin(oFormSubmissions, eq(oFormSubmissions.id, contacts.submissionId))
    .leftJoin(oForms, eq(oForms.id, oFormSubmissions.oFormId))
    .leftJoin(mediaChannels, eq(mediaChannels.id, contacts.mediaChannelId))
    .where(eq(contacts.id, contactId));
  if (!found) return null;
  const { contact, engagement, survey, channel, utm, hiddenFields } = found;
  const [site] = contact.engagementSiteLocationId
    ? await db
        .select({ link: engagementSiteLocations, site: siteLocations })
        .from(engagementSiteLocations)
        .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
        .where(and(eq(engagementSiteLocations.id, contact.engagementSiteLocationId)))
    : [];
  const values = openContactValues(phi, contact.valuesCiphertext);
  const names = Object.keys(values);
  const types = names.length ? await db.select({ name: contactFields.name, type: contactFields.fieldType }).from(contactFields).where(inArray(contactFields.name, names)) : [];
  return {
    referralId,
    contactId: contact.id,
    created: contact.created.toISOString(),
    engagement: {
      id: engagement.id,
      name: engagement.name,
      identification: engagement.identification,
      protocolIdentifier: engagement.protocolIdentifier,
      rmsSponsorIdentifier: engagement.rmsSponsorIdentifier,
    },
    site: site
      ? {
          engagementSiteLocationId: site.link.id,
          rmsSiteIdentification: site.link.rmsSiteIdentification,
          siteId: site.site.siteId,
          name: site.site.name,
          address1: site.site.streetAddress,
          city: site.site.city,
          state: site.site.state,
          zipCode: site.site.zipCode,
        }
      : null,
    survey: survey ? { id: survey.id, identity: survey.identity, version: survey.version, title: survey.title } : null,
    submissionId: contact.submissionId,
    screenerId: contact.screenerId,
    attribution: { mediaChannelId: contact.mediaChannelId, mediaChannelTitle: channel?.title ?? null, utm: utm ?? {}, hiddenFields: hiddenFields ?? {} },
    consent: {
      acceptedTerms: contact.acceptTerms,
      consentedAt: contact.consentedAt?.toISOString() ?? null,
      language: contact.language,
      text: contact.consentText,
      textSha256: contact.consentTextSha256,
      surveyVersion: contact.consentSurveyVersion,
    },
    values,
    valueTypes: Object.fromEntries(types.map((t) => [t.name, t.type])),
    answers: await screeningAnswers(db, phi, contact.submissionId),
    test: false,
  };
}

const TEST_CONSENT = 'TEST: no participant agreed to anything; this is a connection check.';

/** A clearly marked synthetic referral for "Send test": nobody's data, `test: true` everywhere. */
export function testReferralFacts(referralId: string, at: Date): ReferralFacts {
  return {
    referralId,
    contactId: 0,
    created: at.toISOString(),
    engagement: { id: 0, name: 'TEST: connection check', identification: 'TEST', protocolIdentifier: 'TEST-PROTOCOL', rmsSponsorIdentifier: null },
    site: null,
    survey: null,
    submissionId: null,
    screenerId: null,
    attribution: { mediaChannelId: null, mediaChannelTitle: null, utm: {}, hiddenFields: {} },
    consent: { acceptedTerms: true, consentedAt: at.toISOString(), language: 'en', text: TEST_CONSENT, textSha256: createHash('sha256').update(TEST_CONSENT, 'utf8').digest('hex'), surveyVersion: null },
    values: { first_name: 'Test', last_name: 'Referral', email: 'test.referral@example.invalid' },
    valueTypes: { first_name: 'text', last_name: 'text', email: 'email' },
    answers: [],
    test: true,
  };
}

/** The webhook's body: a Standard Webhooks payload (type, timestamp, data) of the facts. */
export function webhookBody(facts: ReferralFacts): string {
  const { answers: _answers, valueTypes: _types, ...data } = facts;
  return JSON.stringify({ type: facts.test ? 'referral.test' : 'referral.created', timestamp: facts.created, data });
}

