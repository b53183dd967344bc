import { describe, expect, it } from 'vitest';
import { chooseFromList } from '@core/validation/chooseFromList';

describe('chooseFromList', () => {
  it('names what to choose in the API sentence for a reference that is not one', () => {
    expect(chooseFromList('a survey')).toBe('Choose a survey from the list.');
    expect(chooseFromList('contact fields')).toBe('Choose contact fields from the list.');
  });
});
