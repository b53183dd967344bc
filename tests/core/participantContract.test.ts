/**
 * The participant contract's answer check: what the server answers passes, and an answer that
 * carries an undeclared attribute, lacks one or has the wrong kind of value is refused, naming
 * where. (The API tests run every participant answer through it via the transport's `check`.)
 */
import { describe, expect, it } from 'vitest';
import { checkParticipantAnswer } from '@core/participant/responses';

const messages = { contactForm: '<p>Thanks</p>', consent: '' };
const site = {
  type: 'trial-sites',
  id: '7',
  attributes: {
    name: 'Midtown',
    address1: '1 Main St',
    address2: null,
    city: 'New York',
    state: 'NY',
    zipCode: '10001',
    distanceMiles: 1.2,
    engagementId: '3',
  },
};

describe('checkParticipantAnswer', () => {
  it('accepts answers as declared, and 422s and errors as error documents', () => {
    expect(() => checkParticipantAnswer('sites', 200, { data: [site], meta: { outcome: 'qualified', messages } })).not.toThrow();
    expect(() => checkParticipantAnswer('sanitized', 200, { meta: { isSanitizeSuccess: true } })).not.toThrow();
    const problems = {
      errors: [{ status: '422', title: 'Invalid Attribute', detail: 'This field is required.', source: { pointer: '/data/attributes/answers/q1' } }],
    };
    expect(() => checkParticipantAnswer('pageSaved', 422, { ...problems, meta: { success: false, errors: { q1: 'This field is required.' } } })).not.toThrow();
    expect(() => checkParticipantAnswer('sites', 404, { errors: [{ status: '404', title: 'Not Found' }] })).not.toThrow();
  });

  it('refuses an undeclared attribute, a missing one and a wrong kind, naming where', () => {
    const extra = { ...site, attributes: { ...site.attributes, phone: '555' } };
    expect(() => checkParticipantAnswer('sites', 200, { data: [extra], meta: { outcome: 'qualified', messages } })).toThrow(
      /sites answer \(HTTP 200\).*data\.0\.attributes/,
    );
    const { name: _name, ...nameless } = site.attributes;
    expect(() => checkParticipantAnswer('sites', 200, { data: [{ ...site, attributes: nameless }], meta: { outcome: 'qualified', messages } })).toThrow(/name/);
    expect(() => checkParticipantAnswer('sanitized', 200, { meta: { isSanitizeSuccess: 'yes' } })).toThrow(/meta\.isSanitizeSuccess/);
    expect(() => checkParticipantAnswer('qualification', 200, { meta: { isQualified: true, outcome: 'maybe', engagementIds: [], messages } })).toThrow(
      /meta\.outcome/,
    );
    expect(() => checkParticipantAnswer('pageSaved', 500, { message: 'boom' })).toThrow(/HTTP 500/);
  });
});
