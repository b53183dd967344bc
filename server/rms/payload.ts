/**
 * What a record system learns of a referral, gathered once from the database: the facts every
 * transport builds its body from (the webhook's JSON, the FHIR Bundle). New facts about a
 * referral (consent wording, attribution, hidden fields) are added here, in `ReferralFacts`
 * and `loadReferralFacts`, and reach every record system from this one place.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Utm } from '@core/model/partnerPage';
import type { Db } from '../db/open';
import {
  contactFields,
  contacts,
  engagementSiteLocations,
  engagements,
  mediaChannels,
  oFormContainerEntries,
  oFormContainers,
  oFormFieldEntries,
  oFormFields,
  oFormSubmissions,
  oForms,
  countries,
  siteLocations,
  sponsors,
} from '../db/schema';
import { impliedOptions } from '@core/survey/impliedOptions';
import type { FieldType } from '@core/model/survey';
import type { PhiCipher } from '../security/phi';
import { openAnswer } from '../security/sealedAnswer';
import { openContactValues } from '../security/sealedValues';

export interface ReferralSite {
  engagementSiteLocationId: number;
  /** The site's own id here: stable, the key a record system can find its Location by when the site has no other identifier. */
  siteLocationId: number;
  rmsSiteIdentification: string | null;
  siteId: string | null;
  name: string;
  address1: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  /** ISO 3166-1 alpha-2, when the site names its country. */
  country: string | null;
}

/** One question of the survey version the participant answered, as a Questionnaire describes it. */
export interface SurveyQuestion {
  identity: string;
  title: string;
  type: string;
  /** A choice question's options (value and label); empty for other types. */
  options: { value: string; label: string }[];
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
  /** The engagement's sponsor: the ResearchStudy's sponsor Organization. */
  sponsor: { id: number; name: string; identification: string; rmsSponsorIdentifier: string | null };
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
  /** Every question of the survey version answered (the FHIR Questionnaire), in page order. */
  questions: SurveyQuestion[];
  /** A synthetic referral sent by "Send test"; receivers should not file it. */
  test: boolean;
}

async function screeningAnswers(db: Db, phi: PhiCipher, submissionId: number | null): Promise<ScreeningAnswer[]> {
  if (submissionId === null) return [];
  const rows = await db
    .select({
      identity: oFormFields.identity,
      title: oFormFields.title,
      type: oFormFields.type,
      value: oFormFieldEntries.fieldValue,
      sealed: oFormFieldEntries.sealedValue,
    })
    .from(oFormFieldEntries)
    .innerJoin(oFormContainerEntries, eq(oFormContainerEntries.id, oFormFieldEntries.containerEntryId))
    .innerJoin(oFormFields, eq(oFormFields.id, oFormFieldEntries.fieldId))
    .where(eq(oFormContainerEntries.submissionId, submissionId))
    .orderBy(asc(oFormFieldEntries.id));
  return rows.map((r) => ({ questionIdentity: r.identity, questionTitle: r.title, type: r.type, value: openAnswer(phi, r) }));
}

const optionsOf = (type: string, configuration: Record<string, unknown>): SurveyQuestion['options'] => {
  const own = Array.isArray(configuration.options) ? (configuration.options as { value?: unknown; label?: unknown }[]) : [];
  const listed = own.flatMap((o) =>
    typeof o?.value === 'string' ? [{ value: o.value, label: typeof o.label === 'string' && o.label !== '' ? o.label : o.value }] : [],
  );
  return [...listed, ...impliedOptions(type as FieldType, own).map((value) => ({ value, label: value === 'yes' ? 'Yes' : 'No' }))];
};

/** The questions of survey version `oFormId` (pages, then groups inside them, in display order), placeholders left out. */
async function surveyQuestions(db: Db, oFormId: number | null): Promise<SurveyQuestion[]> {
  if (oFormId === null) return [];
  const rows = await db
    .select({ identity: oFormFields.identity, title: oFormFields.title, type: oFormFields.type, configuration: oFormFields.configuration })
    .from(oFormFields)
    .innerJoin(oFormContainers, eq(oFormContainers.id, oFormFields.containerId))
    .where(eq(oFormContainers.oFormId, oFormId))
    .orderBy(asc(oFormContainers.displayOrder), asc(oFormContainers.id), asc(oFormFields.displayOrder), asc(oFormFields.id));
  return rows
    .filter((r) => r.type !== 'placeholder')
    .map((r) => ({ identity: r.identity, title: r.title, type: r.type, options: optionsOf(r.type, r.configuration) }));
}

/**
 * The facts of contact `contactId`'s referral under key `referralId`, values decrypted; null
 * when there is no such contact. Throws PhiError when the values cannot be opened.
 */
export async function loadReferralFacts(db: Db, phi: PhiCipher, contactId: number, referralId: string): Promise<ReferralFacts | null> {
  const [found] = await db
    .select({
      contact: contacts,
      engagement: engagements,
      sponsor: sponsors,
      survey: oForms,
      channel: { id: mediaChannels.id, title: mediaChannels.title },
      utm: oFormSubmissions.utm,
      hiddenFields: oFormSubmissions.hiddenFields,
    })
    .from(contacts)
    .innerJoin(engagements, eq(engagements.id, contacts.engagementId))
    .innerJoin(sponsors, eq(sponsors.id, engagements.sponsorId))
    .leftJoin(oFormSubmissions, eq(oFormSubmissions.id, contacts.submissionId))
    .leftJoin(oForms, eq(oForms.id, oFormSubmissions.oFormId))
    .leftJoin(mediaChannels, eq(mediaChannels.id, contacts.mediaChannelId))
    .where(eq(contacts.id, contactId));
  if (!found) return null;
  const { contact, engagement, sponsor, survey, channel, utm, hiddenFields } = found;
  const [site] = contact.engagementSiteLocationId
    ? await db
        .select({ link: engagementSiteLocations, site: siteLocations, country: countries.isoCode })
        .from(engagementSiteLocations)
        .innerJoin(siteLocations, eq(siteLocations.id, engagementSiteLocations.siteLocationId))
        .leftJoin(countries, eq(countries.id, siteLocations.countryId))
        .where(and(eq(engagementSiteLocations.id, contact.engagementSiteLocationId)))
    : [];
  const values = openContactValues(phi, contact.valuesCiphertext);
  const names = Object.keys(values);
  const types = names.length
    ? await db.select({ name: contactFields.name, type: contactFields.fieldType }).from(contactFields).where(inArray(contactFields.name, names))
    : [];
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
    sponsor: { id: sponsor.id, name: sponsor.name, identification: sponsor.identification, rmsSponsorIdentifier: sponsor.rmsSponsorIdentifier },
    site: site
      ? {
          engagementSiteLocationId: site.link.id,
          siteLocationId: site.site.id,
          rmsSiteIdentification: site.link.rmsSiteIdentification,
          siteId: site.site.siteId,
          name: site.site.name,
          address1: site.site.streetAddress,
          city: site.site.city,
          state: site.site.state,
          zipCode: site.site.zipCode,
          country: site.country,
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
    questions: await surveyQuestions(db, survey?.id ?? null),
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
    sponsor: { id: 0, name: 'TEST: connection check', identification: 'TEST', rmsSponsorIdentifier: null },
    site: null,
    survey: null,
    submissionId: null,
    screenerId: null,
    attribution: { mediaChannelId: null, mediaChannelTitle: null, utm: {}, hiddenFields: {} },
    consent: {
      acceptedTerms: true,
      consentedAt: at.toISOString(),
      language: 'en',
      text: TEST_CONSENT,
      textSha256: createHash('sha256').update(TEST_CONSENT, 'utf8').digest('hex'),
      surveyVersion: null,
    },
    values: { first_name: 'Test', last_name: 'Referral', email: 'test.referral@example.invalid' },
    valueTypes: { first_name: 'text', last_name: 'text', email: 'email' },
    answers: [],
    questions: [],
    test: true,
  };
}

/** The webhook's body: a Standard Webhooks payload (type, timestamp, data) of the facts. */
export function webhookBody(facts: ReferralFacts): string {
  const { answers: _answers, valueTypes: _types, questions: _questions, ...data } = facts;
  return JSON.stringify({ type: facts.test ? 'referral.test' : 'referral.created', timestamp: facts.created, data });
}
