/**
 * Names sort as people read them, numbers by value ("Site 2" before "Site 10"), in every list
 * and on both databases: the list kit's name sorts use the natural_sort collation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;

// Created in this order on purpose: neither the insertion order nor byte order is natural.
const NAMES = ['Nat 10', 'nat 3', 'Nat 2', 'Nat 1', 'Nat 11', 'Nat 02b', 'Ñat 5'];
// Numbers by value; case and accents count only between otherwise equal names (Ñat 5 before Nat 10).
const NATURAL = ['Nat 1', 'Nat 2', 'Nat 02b', 'nat 3', 'Ñat 5', 'Nat 10', 'Nat 11'];

async function create(path: string, type: string, attributes: Record<string, unknown>): Promise<string> {
  const res = await h.request('POST', `/api/${path}`, { token: admin, body: { data: { type, attributes } } });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.id as string;
}

async function names(path: string, attribute: string): Promise<string[]> {
  const res = await h.request('GET', `/api/${path}`, { token: admin });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (body.data as { attributes: Record<string, string> }[]).map((r) => r.attributes[attribute]!);
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  const sponsorIds: string[] = [];
  for (const [i, name] of NAMES.entries()) {
    sponsorIds.push(await create('sponsors', 'sponsors', { name, identification: `NAT-${i}` }));
    await create('site-locations', 'site-locations', { name });
  }
  for (const [i, name] of NAMES.entries()) {
    await create('engagements', 'engagements', { name, identification: `NE-${i}`, sponsorId: Number(sponsorIds[i]) });
  }
  const screenerIds: string[] = [];
  for (const [i, title] of NAMES.entries()) screenerIds.push(await create('screeners', 'screeners', { title, sponsorId: Number(sponsorIds[i]) }));
  for (const [i, title] of NAMES.entries()) {
    await create('media-channels', 'media-channels', { title, domain: `nat${i}.example`, screenerId: Number(screenerIds[i]), channelType: 'Other' });
  }
});
afterAll(async () => {
  await h.close();
});

describe('natural name sort', () => {
  it('sorts sponsors, engagements, sites, screeners and media channels by name as people read them, both ways', async () => {
    const lists: [path: string, sort: string, attribute: string][] = [
      ['sponsors?searchQuery=at&limit=100', 'name', 'name'],
      ['engagements?searchQuery=at&limit=100', 'name', 'name'],
      ['site-locations?searchQuery=at&limit=100', 'name', 'name'],
      ['screeners?searchQuery=at&limit=100', 'title', 'title'],
      ['media-channels?searchQuery=at&limit=100', 'title', 'title'],
    ];
    for (const [path, sort, attribute] of lists) {
      expect(await names(`${path}&sort=${sort}`, attribute), path).toEqual(NATURAL);
      expect(await names(`${path}&sort=-${sort}`, attribute), path).toEqual([...NATURAL].reverse());
    }
  });

  it('sorts by a joined name too (an engagement by its sponsor, a channel by its screener) and in the default sorts', async () => {
    expect(await names('engagements?searchQuery=at&limit=100&sort=sponsorName', 'sponsorName')).toEqual(NATURAL);
    expect(await names('media-channels?searchQuery=at&limit=100&sort=screenerName', 'screenerName')).toEqual(NATURAL);
    // Default sorts: active first, then by name.
    expect(await names('sponsors?searchQuery=at&limit=100', 'name')).toEqual(NATURAL);
    expect(await names('screeners?searchQuery=at&limit=100', 'title')).toEqual(NATURAL);
    expect(await names('media-channels?searchQuery=at&limit=100', 'title')).toEqual(NATURAL);
  });
});
