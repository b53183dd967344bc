/**
 * HL7 FHIR R4 for record systems that speak it: a referral as a `transaction` Bundle (the
 * sponsor's Organization, the site's Location, the ResearchStudy, the survey version's
 * Questionnaire, Patient, ResearchSubject, Consent and QuestionnaireResponse), and an
 * OperationOutcome turned into one readable line for the audit. Every entry is a conditional
 * create (`ifNoneExist`) on a key that does not depend on which contact fields a screener asks
 * for: the Patient and the referral's own resources by the referral's identifier, the others by
 * their identifier or canonical URL, so a retry or a resend does not make a second copy. The
 * README has the mapping table.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  Bundle,
  BundleEntry,
  Coding,
  Consent,
  ContactPoint,
  Extension,
  Identifier,
  Location,
  OperationOutcome,
  OperationOutcomeIssue,
  Organization,
  Patient,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItemAnswer,
  ResearchStudy,
  ResearchSubject,
  Resource,
} from '@medplum/fhirtypes';
import type { ReferralFacts, ScreeningAnswer, SurveyQuestion } from './payload';

export const FHIR_CONTENT_TYPE = 'application/fhir+json';
/** A UUID as an identifier, the way FHIR spells one (RFC 3986 URN). */
export const URI_SYSTEM = 'urn:ietf:rfc:3986';
/** Where the referral's site goes: R4's ResearchSubject has no element for it. */
export const SITE_EXTENSION = 'urn:trial-recruit:fhir:StructureDefinition:research-subject-site';
/** Where the participant came from (campaign parameters and the channel's hidden fields): R4 has no element for it. */
export const ATTRIBUTION_EXTENSION = 'urn:trial-recruit:fhir:StructureDefinition:research-subject-attribution';
export const STUDY_IDENTIFIER_SYSTEM = 'urn:trial-recruit:fhir:protocol-identifier';
export const SITE_IDENTIFIER_SYSTEM = 'urn:trial-recruit:fhir:site-identifier';
/** The site's own id here: every Location carries it, and is found by it when the site has no other identifier. */
export const SITE_LOCATION_SYSTEM = 'urn:trial-recruit:fhir:site-location-id';
export const SPONSOR_IDENTIFIER_SYSTEM = 'urn:trial-recruit:fhir:sponsor-identifier';
/** A survey's canonical URL (its stable identity); a version's canonical adds `|<version>`. */
export const questionnaireUrl = (surveyIdentity: string) => `urn:trial-recruit:fhir:Questionnaire:${encodeURIComponent(surveyIdentity)}`;
/** The code system of one question's options: the option values are its codes, the labels their display. */
export const optionSystem = (surveyIdentity: string, questionIdentity: string) =>
  `urn:trial-recruit:fhir:CodeSystem:${encodeURIComponent(surveyIdentity)}:${encodeURIComponent(questionIdentity)}`;
/** HL7's tag for test data: every resource of a "Send test" carries it. */
const TEST_TAG: Coding = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'HTEST', display: 'test health data' };

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;

/** A contact field's value by its type, or by a name that says what it holds. */
function contactValue(facts: ReferralFacts, test: (name: string, type: string) => boolean): string | null {
  for (const [name, value] of Object.entries(facts.values)) {
    if (test(name.toLowerCase(), facts.valueTypes[name] ?? 'text') && text(value)) return text(value);
  }
  return null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function birthDate(facts: ReferralFacts): string | null {
  const fromContact = contactValue(facts, (name, type) => type === 'date' && /birth|dob/.test(name));
  if (fromContact && ISO_DATE.test(fromContact)) return fromContact;
  const answered = facts.answers.find((a) => a.type === 'dob');
  const value = text(answered?.value);
  return value && ISO_DATE.test(value) ? value : null;
}

function patientOf(facts: ReferralFacts, identifier: Identifier): Patient {
  const given = contactValue(facts, (name) => /^(first|given)(_?name)?$/.test(name));
  const family = contactValue(facts, (name) => /^(last|family|sur)(_?name)?$/.test(name));
  const email = contactValue(facts, (name, type) => type === 'email' || name === 'email');
  const phone = contactValue(facts, (name, type) => type === 'phone' || name === 'phone');
  const zip = contactValue(facts, (name, type) => type === 'zip' || /^(zip|postal)/.test(name)) ?? text(facts.answers.find((a) => a.type === 'zip')?.value);
  const telecom: ContactPoint[] = [];
  if (email) telecom.push({ system: 'email', value: email, use: 'home' });
  if (phone) telecom.push({ system: 'phone', value: phone, use: 'mobile' });
  const born = birthDate(facts);
  return {
    resourceType: 'Patient',
    identifier: [identifier],
    ...(given || family ? { name: [{ ...(family ? { family } : {}), ...(given ? { given: [given] } : {}) }] } : {}),
    ...(telecom.length ? { telecom } : {}),
    ...(born ? { birthDate: born } : {}),
    ...(zip ? { address: [{ postalCode: zip }] } : {}),
    communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: facts.consent.language.replace('_', '-') }] }, preferred: true }],
  };
}

const CHOICE = ['single', 'multiple', 'dropdown', 'yes_no'];

/** The Questionnaire item type of a question type: choices are codings, a number a decimal, dates dates, the rest strings. */
function itemType(type: string): QuestionnaireItem['type'] {
  if (CHOICE.includes(type)) return 'choice';
  if (type === 'number') return 'decimal';
  if (type === 'date' || type === 'dob') return 'date';
  return 'string';
}

/** One answer typed as its question's Questionnaire item says (a number as valueDecimal, an option as a coding with its label). */
function answerOf(answer: ScreeningAnswer, surveyIdentity: string | null, question: SurveyQuestion | undefined): QuestionnaireResponseItemAnswer[] {
  const values = Array.isArray(answer.value) ? answer.value : [answer.value];
  return values.flatMap((value): QuestionnaireResponseItemAnswer[] => {
    if (value === null || value === undefined || value === '') return [];
    if (CHOICE.includes(answer.type)) {
      const code = String(value);
      const display = question?.options.find((o) => o.value === code)?.label;
      return [
        {
          valueCoding: { ...(surveyIdentity ? { system: optionSystem(surveyIdentity, answer.questionIdentity) } : {}), code, ...(display ? { display } : {}) },
        },
      ];
    }
    if ((answer.type === 'date' || answer.type === 'dob') && typeof value === 'string' && ISO_DATE.test(value)) return [{ valueDate: value }];
    if (answer.type === 'number') {
      const number = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (Number.isFinite(number)) return [{ valueDecimal: number }];
    }
    return [{ valueString: typeof value === 'string' ? value : JSON.stringify(value) }];
  });
}

/** The survey version as a Questionnaire: one item per question, choices with their options as codings. */
function questionnaireOf(survey: NonNullable<ReferralFacts['survey']>, questions: SurveyQuestion[]): Questionnaire {
  return {
    resourceType: 'Questionnaire',
    url: questionnaireUrl(survey.identity),
    version: String(survey.version),
    title: survey.title,
    status: 'active',
    subjectType: ['Patient'],
    ...(questions.length
      ? {
          item: questions.map(
            (q): QuestionnaireItem => ({
              linkId: q.identity,
              text: q.title,
              type: itemType(q.type),
              ...(q.type === 'multiple' ? { repeats: true } : {}),
              ...(CHOICE.includes(q.type) && q.options.length
                ? {
                    answerOption: q.options.map((o) => ({
                      valueCoding: { system: optionSystem(survey.identity, q.identity), code: o.value, display: o.label },
                    })),
                  }
                : {}),
            }),
          ),
        }
      : {}),
  };
}

const entry = (fullUrl: string, resource: Resource, ifNoneExist: string): BundleEntry => ({
  fullUrl,
  resource,
  request: { method: 'POST', url: resource.resourceType, ifNoneExist },
});

/** A search by identifier, as `ifNoneExist` takes it. */
const byIdentifier = (identifier: Identifier) => `identifier=${encodeURIComponent(`${identifier.system}|${identifier.value}`)}`;

/** The referral as a FHIR R4 transaction Bundle. */
export function referralBundle(facts: ReferralFacts): Bundle {
  const referral: Identifier = { system: URI_SYSTEM, value: `urn:uuid:${facts.referralId}` };
  const meta = facts.test ? { meta: { tag: [TEST_TAG] } } : {};
  const newId = () => `urn:uuid:${randomUUID()}`;
  const ids = {
    sponsor: newId(),
    site: newId(),
    study: newId(),
    questionnaire: newId(),
    patient: newId(),
    subject: newId(),
    consent: newId(),
    answers: newId(),
  };
  const entries: BundleEntry[] = [];

  const sponsorIdentifier: Identifier = {
    system: SPONSOR_IDENTIFIER_SYSTEM,
    value: facts.engagement.rmsSponsorIdentifier ?? facts.sponsor.rmsSponsorIdentifier ?? facts.sponsor.identification,
  };
  const sponsor: Organization = { resourceType: 'Organization', ...meta, identifier: [sponsorIdentifier], active: true, name: facts.sponsor.name };
  entries.push(entry(ids.sponsor, sponsor, byIdentifier(sponsorIdentifier)));

  const extension: Extension[] = [];
  if (facts.site) {
    const siteIdentifier = facts.site.rmsSiteIdentification ?? facts.site.siteId;
    const ownIdentifier: Identifier = { system: SITE_LOCATION_SYSTEM, value: String(facts.site.siteLocationId) };
    const found: Identifier = siteIdentifier ? { system: SITE_IDENTIFIER_SYSTEM, value: siteIdentifier } : ownIdentifier;
    const location: Location = {
      resourceType: 'Location',
      ...meta,
      identifier: siteIdentifier ? [found, ownIdentifier] : [ownIdentifier],
      name: facts.site.name,
      address: {
        ...(facts.site.address1 ? { line: [facts.site.address1] } : {}),
        ...(facts.site.city ? { city: facts.site.city } : {}),
        ...(facts.site.state ? { state: facts.site.state } : {}),
        ...(facts.site.zipCode ? { postalCode: facts.site.zipCode } : {}),
        ...(facts.site.country ? { country: facts.site.country } : {}),
      },
    };
    entries.push(entry(ids.site, location, byIdentifier(found)));
    extension.push({ url: SITE_EXTENSION, valueReference: { reference: ids.site, display: facts.site.name } });
  }

  const studyIdentifier: Identifier = { system: STUDY_IDENTIFIER_SYSTEM, value: facts.engagement.protocolIdentifier ?? facts.engagement.identification };
  const study: ResearchStudy = {
    resourceType: 'ResearchStudy',
    ...meta,
    identifier: [studyIdentifier],
    title: facts.engagement.name,
    status: 'active',
    sponsor: { reference: ids.sponsor, display: facts.sponsor.name },
    ...(facts.site ? { site: [{ reference: ids.site, display: facts.site.name }] } : {}),
  };
  entries.push(entry(ids.study, study, byIdentifier(studyIdentifier)));

  const canonical = facts.survey ? `${questionnaireUrl(facts.survey.identity)}|${facts.survey.version}` : null;
  if (facts.survey) {
    const questionnaire = { ...questionnaireOf(facts.survey, facts.questions), ...meta };
    entries.push(
      entry(ids.questionnaire, questionnaire, `url=${encodeURIComponent(questionnaire.url!)}&version=${encodeURIComponent(questionnaire.version!)}`),
    );
  }

  entries.push(entry(ids.patient, { ...patientOf(facts, referral), ...meta }, byIdentifier(referral)));

  const { utm, hiddenFields } = facts.attribution;
  const attribution: Extension[] = [
    ...Object.entries(utm).map(([name, value]): Extension => ({ url: name, valueString: value })),
    ...Object.entries(hiddenFields)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([name, value]): Extension => ({
          url: 'hidden-field',
          extension: [
            { url: 'name', valueString: name },
            { url: 'value', valueString: value },
          ],
        }),
      ),
  ];
  if (attribution.length) extension.push({ url: ATTRIBUTION_EXTENSION, extension: attribution });

  const subject: ResearchSubject = {
    resourceType: 'ResearchSubject',
    ...meta,
    ...(extension.length ? { extension } : {}),
    identifier: [referral],
    status: 'candidate',
    study: { reference: ids.study, identifier: studyIdentifier, display: facts.engagement.name },
    individual: { reference: ids.patient },
    consent: { reference: ids.consent },
    period: { start: facts.created },
  };
  entries.push(entry(ids.subject, subject, byIdentifier(referral)));

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
  entries.push(entry(ids.consent, consent, byIdentifier(referral)));

  const questions = new Map(facts.questions.map((q) => [q.identity, q]));
  const items = facts.answers
    .map((a) => ({ linkId: a.questionIdentity, text: a.questionTitle, answer: answerOf(a, facts.survey?.identity ?? null, questions.get(a.questionIdentity)) }))
    .filter((i) => i.answer.length > 0);
  const response: QuestionnaireResponse = {
    resourceType: 'QuestionnaireResponse',
    ...meta,
    identifier: referral,
    ...(canonical ? { questionnaire: canonical } : {}),
    status: 'completed',
    // About this candidacy for the study; answered by the participant.
    subject: { reference: ids.subject },
    source: { reference: ids.patient },
    authored: facts.created,
    ...(items.length ? { item: items } : {}),
  };
  entries.push(entry(ids.answers, response, byIdentifier(referral)));

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

/** FHIR's issue type for an HTTP status we refuse a request with. */
const ISSUE_TYPES: Record<number, OperationOutcomeIssue['code']> = {
  400: 'structure',
  401: 'security',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'too-long',
  415: 'not-supported',
  422: 'invalid',
  429: 'throttled',
};

/**
 * A refusal as FHIR says it: an OperationOutcome with one error issue per problem, its pointer
 * (`/status`) as a FHIRPath expression on the resource (`ResearchSubject.status`).
 */
export function refusalOutcome(
  status: number,
  problems: readonly { detail?: string; title?: string; source?: { pointer?: string } }[],
  resourceType = 'ResearchSubject',
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: problems.map((p): OperationOutcomeIssue => {
      const pointer = p.source?.pointer?.split('/').filter(Boolean) ?? [];
      return {
        severity: 'error',
        code: ISSUE_TYPES[status] ?? 'exception',
        diagnostics: p.detail ?? p.title ?? 'Refused.',
        ...(pointer.length
          ? { expression: [[resourceType, ...pointer.map((part) => (/^\d+$/.test(part) ? `[${part}]` : part))].join('.').replace(/\.\[/g, '[')] }
          : {}),
      };
    }),
  };
}
