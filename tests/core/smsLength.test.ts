/** A text's length as carriers count it: GSM-7 up to 160 (153 a segment beyond), two places for an extended character, UCS-2 at 70 (67) once any other character appears. */
import { describe, expect, it } from 'vitest';
import { smsLength } from '@core/model/message';

describe('smsLength', () => {
  it('counts GSM-7 texts in 160, then 153, characters a segment', () => {
    expect(smsLength('')).toEqual({ characters: 0, encoding: 'GSM-7', segments: 0 });
    expect(smsLength('x'.repeat(160))).toEqual({ characters: 160, encoding: 'GSM-7', segments: 1 });
    expect(smsLength('x'.repeat(161))).toEqual({ characters: 161, encoding: 'GSM-7', segments: 2 });
    expect(smsLength('x'.repeat(306)).segments).toBe(2);
    expect(smsLength('x'.repeat(307)).segments).toBe(3);
    // An extended character takes two places: 159 + 2 > 160.
    expect(smsLength(`${'x'.repeat(159)}€`)).toEqual({ characters: 160, encoding: 'GSM-7', segments: 2 });
    expect(smsLength('Señor, ¿qué?').encoding).toBe('GSM-7');
  });

  it('counts a text with any other character as UCS-2 in 70, then 67, a segment', () => {
    expect(smsLength(`${'x'.repeat(69)}á`)).toEqual({ characters: 70, encoding: 'UCS-2', segments: 1 });
    expect(smsLength(`${'x'.repeat(70)}á`)).toEqual({ characters: 71, encoding: 'UCS-2', segments: 2 });
    // An emoji is two UCS-2 units: 69 + 2 > 70.
    expect(smsLength(`${'x'.repeat(69)}🙂`)).toEqual({ characters: 70, encoding: 'UCS-2', segments: 2 });
  });
});
