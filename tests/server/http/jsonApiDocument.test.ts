import { describe, expect, it } from 'vitest';
import { assertJsonApiDocument } from '../../support/jsonApiDocument';

describe('the JSON:API 1.0 check every API test answer goes through', () => {
  it('accepts resources, collections with included, errors and meta-only documents', () => {
    for (const doc of [
      { data: { type: 'sponsors', id: '1', attributes: { name: 'Acme' }, relationships: { engagements: { data: [{ type: 'engagements', id: '2' }] } } } },
      { data: [], meta: { count: 0 }, links: { self: '/api/sponsors' } },
      { data: null },
      { errors: [{ status: '422', code: 'invalid', detail: 'Name is required.', source: { pointer: '/data/attributes/name' } }] },
      { meta: { deleted: true } },
    ]) {
      expect(() => assertJsonApiDocument(doc, 'GET /x')).not.toThrow();
    }
  });

  it('refuses what the standard forbids, naming the call', () => {
    expect(() => assertJsonApiDocument({ data: { type: 'media-channels', id: '1', attributes: { type: 'website' } } }, 'GET /api/media-channels/1')).toThrow(
      /^GET \/api\/media-channels\/1 answered a document that is not valid JSON:API 1\.0/,
    );
    expect(() => assertJsonApiDocument({ data: { type: 'sponsors', attributes: {} } }, 'GET /y')).toThrow(/not valid JSON:API/);
    expect(() => assertJsonApiDocument({ data: [], errors: [] }, 'GET /z')).toThrow(/not valid JSON:API/);
    expect(() => assertJsonApiDocument({ data: { type: 'sponsors', id: 1 } }, 'GET /w')).toThrow(/not valid JSON:API/);
  });
});
