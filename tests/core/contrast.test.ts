import { describe, expect, it } from 'vitest';
import { contrastRatio, contrastWarnings } from '@core/validation/contrast';

describe('colour contrast', () => {
  it('computes WCAG ratios, reading two digits as a grey', () => {
    expect(contrastRatio('000000', 'FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('FFFFFF', 'FFFFFF')).toBe(1);
    expect(contrastRatio('77', 'FFFFFF')).toBeCloseTo(contrastRatio('777777', 'FFFFFF')!, 10);
    expect(contrastRatio('008080', 'FFFFFF')).toBeCloseTo(4.77, 2);
    expect(contrastRatio('zz', 'FFFFFF')).toBeNull();
  });

  it('warns where the widget uses a colour below AA: text 4.5:1, boxes and bars 3:1; inactive back button exempt', () => {
    const warnings = contrastWarnings({
      'nextButton.active': 'FFCC00',
      'formField.helper': '777777',
      'checkbox.active': '767676',
      'backButton.inactive': 'EEEEEE',
      'progressBar.color': 'BBBBBB',
      'responseButton.hover': '',
    });
    expect(warnings.map((w) => [w.key, w.min])).toEqual([
      ['nextButton.active', 4.5],
      ['formField.helper', 4.5],
      ['progressBar.color', 3],
    ]);
    expect(warnings[0]!.ratio).toBeLessThan(2);
    expect(contrastWarnings({ 'progressBar.color': '333333', 'progressBar.background': '' })).toEqual([]);
  });
});
