/**
 * What a partner's integration engineer writes from the published contract alone: the types
 * openapi-typescript generates from /api/openapi.json (`./openapi`, written beside this file's
 * copy by tests/server/openapi/typedClient.test.ts) and openapi-fetch. It signs in, creates a sponsor and
 * its engagements, lists them with a filter and a sort, reads the second page and takes the list
 * as CSV. It must compile without a cast: every attribute it reads is typed by the document.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi';
import type { Partner, PartnerOutcome } from './outcome';

const JSON_API = 'application/vnd.api+json';
type EngagementsQuery = NonNullable<paths['/api/engagements']['get']['parameters']['query']>;

export async function runPartnerIntegration(partner: Partner): Promise<PartnerOutcome> {
  const auth = createClient<paths, 'application/json'>({ baseUrl: partner.baseUrl });
  const signedIn = await auth.POST('/api/jwt/login', { body: { data: { username: partner.username, password: partner.password } } });
  if (!signedIn.data || signedIn.data.success !== true) throw new Error(`sign-in refused (${signedIn.response.status})`);
  const bearer = { Authorization: `Bearer ${signedIn.data.access}` };

  const api = createClient<paths, typeof JSON_API>({ baseUrl: partner.baseUrl, headers: { ...bearer, Accept: JSON_API, 'Content-Type': JSON_API } });
  const sponsorAnswer = await api.POST('/api/sponsors', {
    body: { data: { type: 'sponsors', attributes: { name: `Partner sponsor ${partner.mark}`, identification: `P${partner.mark}` } } },
  });
  if (!sponsorAnswer.data) throw new Error(`sponsor refused (${sponsorAnswer.response.status})`);
  const sponsorId = sponsorAnswer.data.data.id;

  const created: PartnerOutcome['created'][number][] = [];
  for (let n = 1; n <= partner.engagements + 1; n++) {
    const answer = await api.POST('/api/engagements', {
      body: {
        data: {
          type: 'engagements',
          attributes: {
            name: `Study ${String(n).padStart(2, '0')}`,
            identification: `E${n}`,
            sponsorId: Number(sponsorId),
            phase: n > partner.engagements ? 'III' : 'II',
            radius: 10 + n,
          },
        },
      },
    });
    if (!answer.data) throw new Error(`engagement ${n} refused (${answer.response.status})`);
    const { id, attributes } = answer.data.data;
    created.push({ id, fullIdentification: attributes.fullIdentification, radius: attributes.radius, phase: attributes.phase });
  }

  const query: EngagementsQuery = { sponsorId, phase: 'II', sort: '-name', limit: 10 };
  const first = await api.GET('/api/engagements', { params: { query } });
  if (!first.data) throw new Error(`list refused (${first.response.status})`);
  const second = await api.GET('/api/engagements', { params: { query: { ...query, page: 2 } } });
  if (!second.data) throw new Error(`page 2 refused (${second.response.status})`);

  const sponsorRead = await api.GET('/api/sponsors/{id}', { params: { path: { id: sponsorId } } });
  if (!sponsorRead.data) throw new Error(`sponsor read refused (${sponsorRead.response.status})`);
  const sponsor = sponsorRead.data.data.attributes;

  const csvClient = createClient<paths, 'text/csv'>({ baseUrl: partner.baseUrl, headers: { ...bearer, Accept: 'text/csv' } });
  const csv = await csvClient.GET('/api/engagements', {
    params: { query: { sponsorId, sort: 'name', 'fields[engagements]': 'name,fullIdentification,phase' } },
    parseAs: 'text',
  });
  if (csv.data === undefined) throw new Error(`CSV refused (${csv.response.status})`);

  return {
    sponsor: {
      id: sponsorId,
      name: sponsor?.name ?? '',
      isActive: sponsor?.isActive ?? false,
      totalEngagements: sponsor?.totalEngagements ?? -1,
    },
    created,
    firstPage: {
      total: first.data.meta?.total ?? -1,
      names: first.data.data.map((e) => e.attributes?.name ?? ''),
      phases: first.data.data.map((e) => e.attributes?.phase ?? null),
    },
    secondPage: {
      page: second.data.meta?.page ?? -1,
      ids: second.data.data.map((e) => e.id),
      sponsorIds: second.data.data.map((e) => e.attributes?.sponsorId ?? 0),
    },
    csv: csv.data,
  };
}
