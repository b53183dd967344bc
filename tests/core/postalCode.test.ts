/**
 * One postal-code rule per country (core/validation/rules.ts), the one survey ZIP questions, ZIP
 * contact fields, the site search and the lead form check by: the run's channel's region decides.
 */
import { describe, expect, it } from 'vitest';
import { isPostalCode } from '@core/validation/rules';
import { checkAnswers, kindRules } from '@core/survey/answers';
import { checkContact } from '@core/survey/contact';
import { message } from '@core/validation/messages';

describe('isPostalCode', () => {
  it('the US (and no region): five digits or ZIP+4', () => {
    for (const zip of ['10001', '02139', '10001-2345', '100012345']) expect(isPostalCode(zip), zip).toBe(true);
    for (const zip of ['1234', '123456', '1000a', 'M5V 3L9', '10001-23', '']) expect(isPostalCode(zip, 'US'), zip).toBe(false);
  });

  it('Canada: A1A 1A1, the space optional, any case', () => {
    for (const code of ['M5V 3L9', 'M5V3L9', 'm5v 3l9', 'K1A 0B1']) expect(isPostalCode(code, 'CA'), code).toBe(true);
    for (const code of ['12345', 'M5V', 'M5V 3L', 'MM5 3L9', 'M5V  3L9', 'Toronto']) expect(isPostalCode(code, 'CA'), code).toBe(false);
  });

  it('Great Britain: outward and inward codes', () => {
    for (const code of ['SW1A 1AA', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'ec1a1bb']) expect(isPostalCode(code, 'GB'), code).toBe(true);
    for (const code of ['12345', 'SW1A', 'London', 'SW1A 1A']) expect(isPostalCode(code, 'GB'), code).toBe(false);
  });

  it('elsewhere: 3 to 10 letters, digits, spaces and hyphens with a digit among them', () => {
    expect(isPostalCode('28013', 'ES')).toBe(true);
    expect(isPostalCode('1010', 'AT')).toBe(true);
    expect(isPostalCode('100-0001', 'JP')).toBe(true);
    expect(isPostalCode('D02 X285', 'IE')).toBe(true);
    // A town is not a postal code; nor is a lone digit or a whole sentence.
    for (const code of ['Madrid', '1', '12', '12345678901', '28013 Madrid, Spain']) expect(isPostalCode(code, 'ES'), code).toBe(false);
  });
});

describe("a ZIP by the channel's region", () => {
  const question = [{ identity: 'where', type: 'zip' as const, configuration: { required: true } }];

  it('survey questions: a US channel still refuses 1234; a Canadian one takes M5V 3L9 and refuses 12345, in the participant language', () => {
    expect(checkAnswers(question, { where: '1234' })).toEqual({ where: message('postal') });
    expect(checkAnswers(question, { where: '10001' }, 'en', 'US')).toEqual({});
    expect(checkAnswers(question, { where: 'M5V 3L9' }, 'en', 'CA')).toEqual({});
    expect(checkAnswers(question, { where: '12345' }, 'es', 'CA')).toEqual({ where: 'Debe ser un código postal válido.' });
    expect(checkAnswers(question, { where: '' }, 'en', 'CA')).toEqual({ where: message('required') });
  });

  it('contact fields: the same rule', () => {
    const fields = [{ name: 'zip_code', fieldType: 'zip' as const, required: true }];
    expect(checkContact(fields, { zip_code: ' M5V 3L9 ' }, true, 'en', 'CA')).toEqual({});
    expect(checkContact(fields, { zip_code: 'M5V 3L9' }, true, 'en')).toEqual({ zip_code: message('postal') });
    expect(checkContact(fields, { zip_code: 'SW1A 1AA' }, true, 'en', 'GB')).toEqual({});
  });

  it('is one rule, named once', () => {
    expect(kindRules('zip', 'CA')).toEqual([{ rule: 'postal', region: 'CA' }]);
    expect(kindRules('zip')).toEqual([{ rule: 'postal', region: undefined }]);
  });
});
