import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { engagementIndications, engagements, referrals } from '../../../server/db/schema';
import { IDENTIFICATION_TAKEN } from '../../../server/http/uniqueIdentification';
import { ENGAGEMENT_HAS_REFERRALS, UNKNOWN_SPONSOR } from '../../../server/engagements/routes';
import { createHarness, json, type Harness } from '../harness';
import { expectOnlyIdentificationTaken, expectParametersRefused } from '../listQueries';
import { rowsWhere } from '../rowsWhere';

let h: Harness;
let admin: string;
let sponsorId: string;
let otherSponsorId: string;

const body = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>, id?: string) => ({
  data: { type: 'engagements', ...(id ? { id } : {}), attributes, ...(relationships ? { relationships } : {}) },
});
const engagementCount = async () => (await h.db.select({ n: count() }).from(engagements))[0]?.n;

async function createSponsor(name: string, identification: string) {
  const res = await h.request('POST', '/api/sponsors', { token: admin, body: { data: { type: 'sponsors', attributes: { name, identification } } } });
  return (await json(res)).data.id as string;
}

async function create(attributes: Record<string, unknown>, token = admin, relationships?: Record<string, unknown>) {
  const res = await h.request('POST', '/api/engagements', { token, body: body({ sponsorId: Number(sponsorId), ...attributes }, relationships) });
  return { res, doc: await json(res) };
}

async function lookupIds(path: string, names: string[]) {
  const doc = await json(await h.request('GET', `/api/${path}`, { token: admin }));
  return names.map((name) => {
    const found = doc.data.find((r: { attributes: { name: string } }) => r.attributes.name === name);
    if (!found) throw new Error(`${name} not in ${path}`);
    return found.id as string;
  });
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  sponsorId = await createSponsor('Acme Pharma', 'ACME');
  otherSponsorId = await createSponsor('Other Bio', 'OTHER');
});
afterAll(async () => {
  await h.close();
});

describe('engagements CRUD', () => {
  it('creates with defaults and every field, reads, updates and deletes', async () => {
    const { res, doc } = await create({ name: ' Heart Study ', identification: 'HS-1' });
    expect(res.status).toBe(201);
    expect(doc.data.attributes).toMatchObject({
      name: 'Heart Study',
      identification: 'HS-1',
      fullIdentification: 'ACME-HS-1',
      sponsorName: 'Acme Pharma',
      radius: 25,
      isActive: true,
      rareDisease: false,
      phase: null,
      deiTarget: null,
    });
    const id = doc.data.id;

    const [provider] = await lookupIds('rms-providers', ['Default record system']);
    const full = {
      description: 'A long study.',
      sponsorContact: 'Dr. Who',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      isActive: false,
      radius: 50,
      mediaLiveDate: '2025-02-01',
      mediaEndDate: '2025-11-30',
      g6Url: 'https://g6.example.com/x',
      protocolIdentifier: 'PROT-9',
      studySubjectIdentifier: 'SUBJ',
      protocolVersion: 'v2',
      phase: 'III',
      amendmentDate: '2025-03-03',
      firstPatientInDate: '2025-04-01',
      lastPatientInDate: '2025-09-01',
      rareDisease: true,
      cellGeneTherapy: true,
      deiFocus: true,
      deiTarget: 12.5,
      targetParticipantCount: 300,
      rmsProviderId: Number(provider),
      rmsSponsorIdentifier: 'RMS-ACME',
    };
    const patched = await h.request('PATCH', `/api/engagements/${id}`, { token: admin, body: body(full, undefined, id) });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ ...full, rmsProviderName: 'Default record system' });

    const read = await h.request('GET', `/api/engagements/${id}?include=sponsor,rmsProvider`, { token: admin });
    expect(read.status).toBe(200);
    const readDoc = await json(read);
    expect(readDoc.data.attributes).toMatchObject(full);
    expect(readDoc.data.relationships.sponsor.data).toEqual({ type: 'sponsors', id: sponsorId });
    expect(readDoc.included.find((r: { type: string }) => r.type === 'sponsors').attributes.name).toBe('Acme Pharma');

    expect((await h.request('DELETE', `/api/engagements/${id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', `/api/engagements/${id}`, { token: admin })).status).toBe(404);
  });

  it('sets the four lookup lists with the PATCH after the POST, replacing each list', async () => {
    const { doc } = await create({ name: 'Lookups', identification: 'LK-1' });
    const id = doc.data.id;
    const [oncology, neurology] = await lookupIds('therapeutic-areas', ['Oncology', 'Neurology']);
    const [digital] = await lookupIds('campaign-types', ['Digital Media']);
    const [adults] = await lookupIds('target-groups', ['Adults']);
    const [asthma, migraine] = await lookupIds('indications', ['Asthma', 'Migraine']);
    const relationships = {
      therapeuticAreas: {
        data: [
          { type: 'therapeutic-areas', id: oncology },
          { type: 'therapeutic-areas', id: neurology },
        ],
      },
      campaignTypes: { data: [{ type: 'campaign-types', id: digital }] },
      targetGroups: { data: [{ type: 'target-groups', id: adults }] },
      indications: {
        data: [
          { type: 'indications', id: asthma },
          { type: 'indications', id: migraine },
        ],
      },
    };
    const res = await h.request('PATCH', `/api/engagements/${id}`, { token: admin, body: body({}, relationships, id) });
    expect(res.status).toBe(200);
    const saved = await json(res);
    expect(saved.data.relationships.therapeuticAreas.data.map((r: { id: string }) => r.id).sort()).toEqual([oncology, neurology].sort());
    const names = saved.included.filter((r: { type: string }) => r.type === 'indications').map((r: { attributes: { name: string } }) => r.attributes.name);
    expect(names.sort()).toEqual(['Asthma', 'Migraine']);

    // Replacing: one indication left, other lists untouched.
    await h.request('PATCH', `/api/engagements/${id}`, {
      token: admin,
      body: body({}, { indications: { data: [{ type: 'indications', id: migraine }] } }, id),
    });
    const read = await json(await h.request('GET', `/api/engagements/${id}?include=indications,campaignTypes`, { token: admin }));
    expect(read.data.relationships.indications.data).toEqual([{ type: 'indications', id: migraine }]);
    expect(read.data.relationships.campaignTypes.data).toEqual([{ type: 'campaign-types', id: digital }]);

    // The list includes them on demand, without a query per row.
    const list = await json(await h.request('GET', `/api/engagements?searchQuery=LK-1&include=therapeuticAreas`, { token: admin }));
    expect(list.data[0].relationships.therapeuticAreas.data).toHaveLength(2);
    expect(list.included.map((r: { attributes: { name: string } }) => r.attributes.name).sort()).toEqual(['Neurology', 'Oncology']);
  });

  it('refuses unknown or mistyped relationship ids and writes nothing', async () => {
    const { doc } = await create({ name: 'Bad rels', identification: 'BR-1' });
    const id = doc.data.id;
    const res = await h.request('PATCH', `/api/engagements/${id}`, {
      token: admin,
      body: body(
        { name: 'Renamed' },
        {
          indications: { data: [{ type: 'indications', id: '999999' }] },
          therapeuticAreas: { data: [{ type: 'tags', id: '1' }] },
          owners: { data: [] },
        },
        id,
      ),
    });
    expect(res.status).toBe(422);
    const pointers = (await json(res)).errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/relationships/indications/data', '/data/relationships/owners', '/data/relationships/therapeuticAreas/data']);
    const after = await json(await h.request('GET', `/api/engagements/${id}`, { token: admin }));
    expect(after.data.attributes.name).toBe('Bad rels');
    expect(await rowsWhere(h.db, engagementIndications.engagementId, Number(id))).toEqual([]);
  });

  it('refuses to delete an engagement with referrals (409), keeping it', async () => {
    const { doc } = await create({ name: 'Referred', identification: 'REF-1' });
    await h.db.insert(referrals).values({ engagementId: Number(doc.data.id) });
    const res = await h.request('DELETE', `/api/engagements/${doc.data.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect((await json(res)).errors[0].detail).toBe(ENGAGEMENT_HAS_REFERRALS(1));
    expect((await h.request('GET', `/api/engagements/${doc.data.id}`, { token: admin })).status).toBe(200);
  });
});

describe('engagement validation writes nothing on bad input', () => {
  it('422 with a pointer per invalid attribute', async () => {
    const before = await engagementCount();
    const { res, doc } = await create({
      name: '',
      identification: 'x'.repeat(65),
      phase: 'V',
      radius: 0,
      startDate: '2025-02-30',
      deiTarget: 'lots',
      g6Url: 'ftp://x',
      targetParticipantCount: 1.5,
      rareDisease: 'yes',
      unknown: 1,
    });
    expect(res.status).toBe(422);
    const pointers = doc.errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    for (const field of ['name', 'identification', 'phase', 'radius', 'startDate', 'deiTarget', 'g6Url', 'targetParticipantCount', 'rareDisease']) {
      expect(pointers, field).toContain(`/data/attributes/${field}`);
    }
    expect(doc.errors.find((e: { source: { pointer: string } }) => e.source.pointer === '/data/attributes/phase').detail).toBe(
      'Choose one of: I, II, III, IV, N/A.',
    );
    expect(await engagementCount()).toBe(before);
  });

  it('refuses an end before its start, on create and on a patch of one side', async () => {
    const bad = await create({ name: 'Dates', identification: 'DT-1', startDate: '2025-05-01', endDate: '2025-04-01' });
    expect(bad.res.status).toBe(422);
    expect(bad.doc.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/endDate' }, detail: 'Must not be before the start date.' });
    const { doc } = await create({ name: 'Dates', identification: 'DT-2', startDate: '2025-05-01', endDate: '2025-06-01' });
    const patch = await h.request('PATCH', `/api/engagements/${doc.data.id}`, { token: admin, body: body({ startDate: '2025-07-01' }) });
    expect(patch.status).toBe(422);
    expect((await json(patch)).errors[0].source.pointer).toBe('/data/attributes/endDate');
  });

  it('refuses unknown sponsors and providers, malformed JSON and a missing sponsor', async () => {
    const before = await engagementCount();
    const unknownSponsor = await create({ name: 'X', identification: 'US-1', sponsorId: 999999 });
    expect(unknownSponsor.res.status).toBe(422);
    expect(unknownSponsor.doc.errors[0]).toMatchObject({ detail: UNKNOWN_SPONSOR, source: { pointer: '/data/attributes/sponsorId' } });
    const unknownProvider = await create({ name: 'X', identification: 'UP-1', rmsProviderId: 999999 });
    expect(unknownProvider.doc.errors[0].source.pointer).toBe('/data/attributes/rmsProviderId');
    const noSponsor = await h.request('POST', '/api/engagements', { token: admin, body: body({ name: 'X', identification: 'NS-1' }) });
    expect(noSponsor.status).toBe(422);
    expect((await json(noSponsor)).errors[0].source.pointer).toBe('/data/attributes/sponsorId');
    const malformed = await h.request('POST', '/api/engagements', { token: admin, body: '{"data":' });
    expect(malformed.status).toBe(400);
    expect(await engagementCount()).toBe(before);
  });

  it('keeps identification unique: uniqueIdentification check and 409', async () => {
    await create({ name: 'Unique', identification: 'UNQ-E' });
    const check = await json(await h.request('GET', '/api/engagements?uniqueIdentification=UNQ-E', { token: admin }));
    expect(check.meta.total).toBe(1);
    expect((await json(await h.request('GET', '/api/engagements?uniqueIdentification=UNQ-FREE', { token: admin }))).meta.total).toBe(0);
    const dup = await create({ name: 'Unique again', identification: 'UNQ-E' });
    expect(dup.res.status).toBe(409);
    expect(dup.doc.errors[0]).toMatchObject({ detail: IDENTIFICATION_TAKEN, source: { pointer: '/data/attributes/identification' } });
  });
});

describe('engagements list', () => {
  beforeAll(async () => {
    const rows: [string, string, boolean, string | null][] = [
      ['List C', 'L-C', true, '2026-03-01'],
      ['List A', 'L-A', true, '2026-01-01'],
      ['List B', 'L-B', false, '2025-01-01'],
      ['List D', 'L-D', true, '2026-01-01'],
    ];
    for (const [name, identification, isActive, endDate] of rows) await create({ name, identification, isActive, endDate });
  });

  it('sorts by -isActive,endDate,name by default and pages with meta.total', async () => {
    const doc = await json(await h.request('GET', '/api/engagements?searchQuery=List%20&limit=10', { token: admin }));
    expect(doc.meta).toMatchObject({ total: 4, page: 1, limit: 10 });
    expect(doc.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['List A', 'List D', 'List C', 'List B']);
    const page2 = await json(await h.request('GET', '/api/engagements?searchQuery=List%20&limit=10&page=2', { token: admin }));
    expect(page2.data).toEqual([]);
  });

  it('sorts by a whitelisted column, filters by sponsor and selects fields', async () => {
    const desc = await json(await h.request('GET', '/api/engagements?searchQuery=List%20&sort=-name', { token: admin }));
    expect(desc.data[0].attributes.name).toBe('List D');
    await h.request('POST', '/api/engagements', { token: admin, body: body({ sponsorId: Number(otherSponsorId), name: 'List Other', identification: 'L-O' }) });
    const bySponsor = await json(await h.request('GET', `/api/engagements?sponsorId=${otherSponsorId}`, { token: admin }));
    expect(bySponsor.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual(['List Other']);
    const fields = await json(await h.request('GET', '/api/engagements?fields=name,fullIdentification&searchQuery=L-O', { token: admin }));
    expect(fields.data[0].attributes).toEqual({ name: 'List Other', fullIdentification: 'OTHER-L-O' });
  });

  it('answers 400 naming the parameter for bad list parameters', async () => {
    const cases: [string, string][] = [
      ['sort=password', 'sort'],
      ['sort=name;drop', 'sort'],
      ['limit=7', 'limit'],
      ['page=0', 'page'],
      ['include=users', 'include'],
      ['fields=secret', 'fields'],
      ['sponsorId=abc', 'sponsorId'],
      ['sortAssociated=x', 'sortAssociated'],
      ['isActive=maybe', 'isActive'],
      ['nope=1', 'nope'],
    ];
    await expectParametersRefused(h, '/api/engagements', admin, cases);
  });

  it('puts engagements linked to a site first with sortAssociated', async () => {
    const site = await json(
      await h.request('POST', '/api/site-locations', { token: admin, body: { data: { type: 'site-locations', attributes: { name: 'Assoc Site' } } } }),
    );
    const listB = await json(await h.request('GET', '/api/engagements?searchQuery=L-B', { token: admin }));
    await h.request('POST', '/api/engagements-site-locations', {
      token: admin,
      body: { data: { type: 'engagements-site-locations', attributes: { engagementId: Number(listB.data[0].id), siteLocationId: Number(site.data.id) } } },
    });
    const doc = await json(await h.request('GET', `/api/engagements?searchQuery=List%20&sortAssociated=${site.data.id}`, { token: admin }));
    expect(doc.data[0].attributes).toMatchObject({ name: 'List B', isAssociated: true });
    expect(doc.data[1].attributes.isAssociated).toBe(false);
  });
});

describe('a User sees only engagements of their sponsors', () => {
  let mine: string;
  let theirs: string;
  let userToken: string;
  beforeAll(async () => {
    const mineSponsor = await createSponsor('Mine Inc', 'MINE');
    mine = (
      await json(
        await h.request('POST', '/api/engagements', {
          token: admin,
          body: body({ sponsorId: Number(mineSponsor), name: 'Mine Study', identification: 'M-1' }),
        }),
      )
    ).data.id;
    theirs = (await create({ name: 'Their Study', identification: 'T-1' })).doc.data.id;
    await h.createUser({ username: 'scoped-e', password: 'scoped-password', roles: ['User'], sponsorIds: [Number(mineSponsor)] });
    userToken = await h.token('scoped-e', 'scoped-password');
  });

  it("lists and reads only theirs; another sponsor's engagement is not found", async () => {
    const list = await json(await h.request('GET', '/api/engagements?limit=100', { token: userToken }));
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([mine]);
    expect((await h.request('GET', `/api/engagements/${mine}`, { token: userToken })).status).toBe(200);
    expect((await h.request('GET', `/api/engagements/${theirs}`, { token: userToken })).status).toBe(404);
    expect((await h.request('GET', `/api/referrals/counts/${theirs}`, { token: userToken })).status).toBe(404);
  });

  it('cannot change, delete or create for another sponsor', async () => {
    expect((await h.request('PATCH', `/api/engagements/${theirs}`, { token: userToken, body: body({ name: 'Hacked' }) })).status).toBe(404);
    expect((await h.request('DELETE', `/api/engagements/${theirs}`, { token: userToken })).status).toBe(404);
    const moved = await h.request('PATCH', `/api/engagements/${mine}`, { token: userToken, body: body({ sponsorId: Number(sponsorId) }) });
    expect(moved.status).toBe(422);
    const created = await h.request('POST', '/api/engagements', {
      token: userToken,
      body: body({ sponsorId: Number(sponsorId), name: 'Sneaky', identification: 'SN-1' }),
    });
    expect(created.status).toBe(422);
    expect((await json(created)).errors[0].detail).toBe(UNKNOWN_SPONSOR);
    const still = await json(await h.request('GET', `/api/engagements/${theirs}`, { token: admin }));
    expect(still.data.attributes.name).toBe('Their Study');
  });

  it('learns only that an identification is taken', async () => {
    await expectOnlyIdentificationTaken(h, '/api/engagements', 'T-1', userToken);
  });

  it('requires a signed-in user', async () => {
    expect((await h.request('GET', '/api/engagements')).status).toBe(401);
  });
});

describe('referral counts', () => {
  it('counts total, screened and randomized referrals of one engagement', async () => {
    const { doc } = await create({ name: 'Counted', identification: 'CNT-1' });
    const engagementId = Number(doc.data.id);
    const empty = await json(await h.request('GET', `/api/referrals/counts/${engagementId}`, { token: admin }));
    expect(empty.data).toMatchObject({ type: 'referral-counts', id: String(engagementId), attributes: { total: 0, screened: 0, randomized: 0 } });
    await h.db.insert(referrals).values([{ engagementId, isScreened: true, isRandomized: true }, { engagementId, isScreened: true }, { engagementId }]);
    const counts = await json(await h.request('GET', `/api/referrals/counts/${engagementId}`, { token: admin }));
    expect(counts.data.attributes).toEqual({ total: 3, duplicates: 0, screened: 2, randomized: 1 });
    expect((await h.request('GET', '/api/referrals/counts/abc', { token: admin })).status).toBe(404);
  });
});

describe("an engagement's owner", () => {
  it('is its creator unless another is named, and only an active Admin, Super User or User may be one', async () => {
    const creator = (await json(await h.request('GET', '/api/users?limit=100', { token: admin }))).data.find(
      (u: { attributes: { username: string } }) => u.attributes.username === 'admin',
    );
    const { doc } = await create({ name: 'Owned Study', identification: 'OWN-1' });
    expect(doc.data.attributes).toMatchObject({ ownerUserId: Number(creator.id), ownerUsername: 'admin' });
    const id = doc.data.id as string;

    const recruiter = await h.createUser({ username: 'owner-recruiter', roles: ['User'] });
    const coordinator = await h.createUser({ username: 'owner-coordinator', roles: ['Site Coordinator'] });
    const gone = await h.createUser({ username: 'owner-inactive', roles: ['Admin'], isActive: false });
    const patch = (ownerUserId: unknown) => h.request('PATCH', `/api/engagements/${id}`, { token: admin, body: body({ ownerUserId }, undefined, id) });

    const changed = await patch(recruiter);
    expect(changed.status).toBe(200);
    expect((await json(changed)).data.attributes).toMatchObject({ ownerUserId: recruiter, ownerUsername: 'owner-recruiter' });

    for (const bad of [999_999, coordinator, gone]) {
      const res = await patch(bad);
      expect(res.status).toBe(422);
      expect((await json(res)).errors[0].source.pointer).toBe('/data/attributes/ownerUserId');
    }
    expect((await patch('seven')).status).toBe(422);
    const [row] = await h.db
      .select({ owner: engagements.ownerUserId })
      .from(engagements)
      .where(eq(engagements.id, Number(id)));
    expect(row!.owner).toBe(recruiter);

    // Nobody, when staff say so.
    expect((await json(await patch(null))).data.attributes.ownerUserId).toBeNull();
    const before = await engagementCount();
    expect((await create({ name: 'Badly Owned', identification: 'OWN-2', ownerUserId: coordinator })).res.status).toBe(422);
    expect(await engagementCount()).toBe(before);
  });
});
