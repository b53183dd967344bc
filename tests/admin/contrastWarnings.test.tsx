import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ContrastWarnings } from '../../admin/sections/screeners/StylesFields';

describe('screener styles contrast warning', () => {
  it('lists the colours below WCAG AA, and nothing when all pass', () => {
    const { rerender } = render(<ContrastWarnings colours={{ 'nextButton.active': 'FFCC00', 'formField.error': 'B42318' }} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Low contrast');
    expect(status.textContent).toMatch(/Next Button Active behind the white button text: 1\.\d+:1, needs 4\.5:1/);
    expect(status.textContent).not.toContain('Error');
    rerender(<ContrastWarnings colours={{ 'nextButton.active': '00696F' }} />);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
