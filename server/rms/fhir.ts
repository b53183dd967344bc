/**
 * HL7 FHIR R4 for record systems that speak it: a referral as a `transaction` Bundle (Patient,
 * ResearchSubject, Consent, QuestionnaireResponse and the chosen site's Location), and an
 * OperationOutcome turned into one readable line for the audit. Every entry is a conditional
 * create (`ifNoneExist`): the Patient by e-mail, the rest by the referral's identifier, so a
 * retry or a resend does not make a second copy. The README has the mapping table.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  Bundle,
  BundleEntry,
  Coding,
  Consent,
  ContactPoint,
  Extension,
  Location,
  OperationOutcome,
  Patient,
  QuestionnaireResponse,
  QuestionnaireResponseItemAnswer,
  ResearchSubject,
  Resource,
} from '@medplum/fhirtypes';
import type { ReferralFacts, ScreeningAnswer } from './payload';

export const FHIR_CONTENT_TYPE = 'application/fhir+json';
/** A UUID as an identifier, the way FHIR spells one (RFC 3986 URN). */
export const URI_SYSTEM = 'urn:ietf:rfc:3986';
/** Where the referral's site goes: R4's ResearchSubject has no element for it. */
export const SITE_EXTENSION = 'urn:trial-recruit:fhir:StructureDefinition:research-subject-site';
/** Where the participant came from (campaign parameters and the channel's hidden fields): R4 has no element for it. */
export const ATTRIBUTION_EXTENSION = 'urn:trial-recruit:fhir:StructureDefinition:research-subject-attribution';
export const STUDY_IDENTIFIER_SYSTEM = 'urn:trial-recruit:fhir:protocol-identifier';
export const SITE_IDENTIFIER_SYSTEM = 'urn:trial-recruit:fhir:site-identifier';
/** HL7's tag for test data: every resource of a "Send test" carries it. */
const TEST_TAG: Coding = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'HTEST', display: 'test health data' };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null);

/** A contact field's value by its type, or by a name that says what it holds. */
function valueOf(facts: ReferralFacts, test: (name: string, type: string) => boolean): string | null {
  for (const [name, value] of Object.entries(facts.values)) {
    if (test(name.toLowerCase(), facts.valueTypes[name] ?? 'text') && text(value)) return text(value);
  }
  return null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function birthDate(facts: ReferralFacts): string | null {
  const fromContact = valueOf(facts, (name, type) => type === 'date' && /birth|dob/.test(name));
  if (fromContact && ISO_DATE.test(fromContact)) return fromContact;
  const answered = facts.answers.find((a) => a.type === 'dob');
  const value = text(answered?.value);
  return value && ISO_DATE.test(value) ? value : null;
}

function patientOf(facts: ReferralFacts): { patient: Patient; email: string | null } {
  const given = valueOf(facts, (name) => /^(first|given)(_?name)?$/.test(name));
  const family = valueOf(facts, (name) => /^(last|family|sur)(_?name)?$/.test(name));
  const email = valueOf(facts, (name, type) => type === 'email' || name === 'email');
  const phone = valueOf(facts, (name, type) => type === 'phone' || name === 'phone');
  const zip = valueOf(facts, (name, type) => type === 'zip' || /^(zip|postal)/.test(name)) ?? text(facts.answers.find((a) => a.type === 'zip')?.value);
  const telecom: ContactPoint[] = [];
  if (email) telecom.push({ system: 'email', value: email, use: 'home' });
  if (phone) telecom.push({ system: 'phone', value: phone, use: 'mobile' });
  const born = birthDate(facts);
  const patient: Patient = {
    resourceType: 'Patient',
    ...(given || family ? { name: [{ ...(family ? { family } : {}), ...(given ? { given: [given] } : {}) }] } : {}),
    ...(telecom.length ? { telecom } : {}),
    ...(born ? { birthDate: born } : {}),
    ...(zip ? { address: [{ postalCode: zip }] } : {}),
    communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: facts.consent.language.replace('_', '-') }] }, preferred: true }],
  };
  return { patient, email };
}

function answerOf(answer: ScreeningAnswer): QuestionnaireResponseItemAnswer[] {
  const values = Array.isArray(answer.value) ? answer.value : [answer.value];
  return values.flatMap((value): QuestionnaireResponseItemAnswer[] => {
    if (value === null || value === undefined || value === '') return [];
    if (['single', 'multiple', 'dropdown', 'yes_no'].includes(answer.type)) return [{ valueCoding: { code: String(value) } }];
    if ((answer.type === 'date' || answer.type === 'dob') && typeof value === 'string' && ISO_DATE.test(value)) return [{ valueDate: value }];
    if (answer.type === 'number' && typeof value === 'number') return [Number.isInteger(value) ? { valueInteger: value } : { valueDecimal: value }];
    return [{ valueString: typeof value === 'string' ? value : JSON.stringify(value) }];
  });
}

const entry = (fullUrl: string, resource: Resource, ifNoneExist?: string): BundleEntry => ({
  fullUrl,
  resource,
  request: { method: 'POST', url: resource.resourceType, ...(ifNoneExist ? { ifNoneExist } : {}) },
});

/** The referral as a FHIR R4 transaction Bundle. */
export function referralBundle(facts: ReferralFacts): Bundle {
  const referral = { system: URI_SYSTEM, value: `urn:uuid:${facts.referralId}` };
  const byReferral = `identifier=${encodeURIComponent(`${URI_SYSTEM}|urn:uuid:${facts.referralId}`)}`;
  const meta = facts.test ? { meta: { tag: [TEST_TAG] } } : {};
  const ids = { patient: `urn:uuid:${randomUUID()}`, subject: `urn:uuid:${randomUUID()}`, consent: `urn:uuid:${randomUUID()}`, answers: `urn:uuid:${randomUUID()}`, site: `urn:uuid:${randomUUID()}` };
  const { patient, email } = patientOf(facts);
  const entries: BundleEntry[] = [entry(ids.patient, { ...patient, ...meta }, email ? `email=${encodeURIComponent(email)}` : undefined)];

  const extension: Extension[] = [];
  if (facts.site) {
    const siteIdentifier = facts.site.rmsSiteIdentification ?? facts.site.siteId;
    const location: Location = {
      resourceType: 'Location',
      ...meta,
      ...(siteIdentifier ? { identifier: [{ system: SITE_IDENTIFIER_SYSTEM, value: siteIdentifier }] } : {}),
      name: facts.site.name,
      address: {
        ...(facts.site.address1 ? { line: [facts.site.address1] } : {}),
        ...(facts.site.city ? { city: facts.site.city } : {}),
        ...(facts.site.state ? { state: facts.site.state } : {}),
        ...(facts.site.zipCode ? { postalCode: facts.site.zipCode } : {}),
      },
    };
    entries.push(entry(ids.site, location, siteIdentifier ? `identifier=${encodeURIComponent(`${SITE_IDENTIFIER_SYSTEM}|${siteIdentifier}`)}` : undefined));
    extension.push({ url: SITE_EXTENSION, valueReference: { reference: ids.site, display: facts.site.name } });
  }

  const { utm, hiddenFields } = facts.attribution;
  const attribution: Extension[] = [
    ...Object.entries(utm).map(([name, value]): Extension => ({ url: name, valueString: value })),
    ...Object.entries(hiddenFields)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]): Extension => ({ url: 'hidden-field', extension: [{ url: 'name', valueString: name }, { url: 'value', valueString: value }] })),
  ];
  if (attribution.length) extension.push({ url: ATTRIBUTION_EXTENSION, extension: attribution });

  const subject: ResearchSubject = {
    resourceType: 'ResearchSubject',
    ...meta,
    ...(extension.length ? { extension } : {}),
    identifier: [referral],
    status: 'candidate',
    study: {
      identifier: { system: STUDY_IDENTIFIER_SYSTEM, value: facts.engagement.protocolIdentifier ?? facts.engagement.identification },
      display: facts.engagement.name,
    },
    individual: { reference: ids.patient },
    consent: { reference: ids.consent },
    period: { start: facts.created },
  };
  entries.push(entry(ids.subject, subject, byReferral));

  const consent: Consent = {
    resourceType: 'Consent',
    ...meta,
    identifier: [referral],
    status: facts.consent.acceptedTerms ? 'active' : 'rejected',
    scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'research' }] },
    category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0', display: 'Consent Document' }] }],
    patient: { reference: ids.patient },
    ...(facts.consent.consentedAt ? { dateTime: facts.consent.consentedAt } : {}),
    policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTIN' }] },
    sourceAttachment: consentAttachment(facts),
  };
  entries.push(entry(ids.consent, consent, byReferral));

  const items = facts.answers.map((a) => ({ linkId: a.questionIdentity, text: a.questionTitle, answer: answerOf(a) })).filter((i) => i.answer.length > 0);
  const response: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    ...meta,
    identifier: referral,
    status: 'completed',
    subject: { reference: ids.patient },
    authored: facts.created,
    ...(items.length ? { item: items } : {}),
  };
  entries.push(entry(ids.answers, response, byReferral));

  return { resourceType: 'Bundle', type: 'transaction', ...meta, identifier: referral, entry: entries };
}

/** What the participant agreed to: the terms' language, and when kept their text (as shown, HTML) with its SHA-1 (FHIR's Attachment.hash). */
function consentAttachment(facts: ReferralFacts): Consent['sourceAttachment'] {
  const title = facts.test ? 'Test consent' : 'Terms accepted in the screener';
  const consentText = facts.consent.text ?? null;
  return {
    contentType: facts.test ? 'text/plain' : 'text/html',
    language: facts.consent.language.replace('_', '-'),
    title,
    ...(consentText !== null
      ? { data: Buffer.from(consentText, 'utf8').toString('base64'), hash: createHash('sha1').update(consentText, 'utf8').digest('base64') }
      : {}),
    ...(facts.consent.consentedAt ? { creation: facts.consent.consentedAt } : {}),
  };
}

/** An OperationOutcome's issues in one line ("error invalid: Patient.birthDate is not a date (Patient.birthDate)"), or null. */
export function describeOperationOutcome(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const outcome = parsed as Partial<OperationOutcome> | null;
  if (!outcome || outcome.resourceType !== 'OperationOutcome' || !Array.isArray(outcome.issue)) return null;
  const lines = outcome.issue.map((issue) => {
    const said = issue.details?.text ?? issue.diagnostics ?? '';
    const where = issue.expression?.length ? ` (${issue.expression.join(', ')})` : '';
    return `${issue.severity} ${issue.code}${said ? `: ${said}` : ''}${where}`;
  });
  return lines.length ? lines.join('; ') : null;
}
