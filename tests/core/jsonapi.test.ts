import { describe, expect, it } from 'vitest';
import { decode, encode, errorsByField, errorsToMessage, toSearchParams } from '@core/jsonapi';

describe('errorsToMessage', () => {
  it('joins the details', () => {
    expect(
      errorsToMessage([
        { status: '422', title: 'Invalid', detail: 'Name is required.' },
        { status: '422', title: 'Invalid', detail: 'Country is unknown.' },
      ]),
    ).toBe('Name is required. Country is unknown.');
  });
  it('falls back to the first title, then to the given fallback', () => {
    expect(
      errorsToMessage([
        { status: '500', title: 'Server Error' },
        { status: '500', title: 'Other' },
      ]),
    ).toBe('Server Error');
    expect(errorsToMessage([], 'Could not add Page')).toBe('Could not add Page');
  });
});

describe('errorsByField', () => {
  it('keys errors by the attribute their pointer names, first one wins', () => {
    expect(
      errorsByField([
        { status: '422', title: 'Invalid', detail: 'Required.', source: { pointer: '/data/attributes/name' } },
        { status: '422', title: 'Invalid', detail: 'Too long.', source: { pointer: '/data/attributes/name' } },
        { status: '409', title: 'Conflict', detail: 'Taken.', source: { pointer: '/data/attributes/identification' } },
        { status: '400', title: 'Bad' },
      ]),
    ).toEqual({ name: 'Required.', identification: 'Taken.' });
  });
});

describe('decode', () => {
  it('flattens attributes and resolves relationships from included', () => {
    const flat = decode({
      data: {
        type: 'users',
        id: '1',
        attributes: { username: 'ann' },
        relationships: { roles: { data: [{ type: 'roles', id: '7' }] }, boss: { data: null } },
      },
      included: [{ type: 'roles', id: '7', attributes: { name: 'Admin' } }],
    });
    expect(flat).toEqual({ id: '1', type: 'users', username: 'ann', roles: [{ id: '7', type: 'roles', name: 'Admin' }], boss: null });
  });
  it('keeps identifiers that are not included, and decodes lists', () => {
    const list = decode({
      data: [{ type: 'sponsors', id: '2', attributes: { name: 'A' }, relationships: { country: { data: { type: 'countries', id: '9' } } } }],
    });
    expect(list).toEqual([{ id: '2', type: 'sponsors', name: 'A', country: { type: 'countries', id: '9' } }]);
  });
});

describe('encode and toSearchParams', () => {
  it('builds create and update bodies', () => {
    expect(encode('sponsors', { name: 'A' })).toEqual({ data: { type: 'sponsors', attributes: { name: 'A' } } });
    expect(encode('sponsors', { name: 'A' }, { id: '3' })).toEqual({ data: { type: 'sponsors', id: '3', attributes: { name: 'A' } } });
  });
  it('drops empty parameters', () => {
    expect(toSearchParams({ page: 2, sort: '-name', searchQuery: '', include: undefined }).toString()).toBe('page=2&sort=-name');
  });
});
