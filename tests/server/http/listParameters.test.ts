/**
 * Every list refuses a query parameter it does not know (400 naming it) rather than ignoring it:
 * a misspelt filter must not silently answer the whole list. So does every other route that
 * answers JSON: a misspelt parameter must not be silently dropped. Checked over the route table,
 * so a route added later is held to it too.
 */
import { describe, expect, it } from 'vitest';
import { describedRoutes } from '../../../server/openapi/document';
import { json, useAdminHarness, type Harness } from '../harness';

let h: Harness;
let admin: string;
useAdminHarness((server) => {
  ({ h, admin } = server);
});

/** A route's path with each of its parameters given `value`. */
const pathWith = (path: string, value: string) => path.replace(/:(\w+)(\{[^}]*\})?\??/g, value);

/** Whether `res` is a 400 whose errors name the query parameter `name` (or, where `orInDetail`, say it in a detail). */
async function refusedNaming(res: Response, name: string, orInDetail = false): Promise<boolean> {
  const body = res.headers.get('content-type')?.includes('json') ? await json(res) : null;
  return (
    res.status === 400 &&
    (body?.errors ?? []).some(
      (e: { source?: { parameter?: string }; detail?: string }) => e.source?.parameter === name || (orInDetail && e.detail?.includes(name) === true),
    )
  );
}

describe('list routes', () => {
  it('answer 400 naming an unknown query parameter, on every list', async () => {
    const lists = describedRoutes(h.app.routes).filter(
      (r) => r.method === 'GET' && r.path.startsWith('/api/') && r.doc && (r.doc.list || (r.doc.answer && 'list' in r.doc.answer)),
    );
    expect(lists.length).toBeGreaterThan(20);
    const ignored: string[] = [];
    for (const route of lists) {
      const path = pathWith(route.path, '1');
      const res = await h.request('GET', `${path}?misspeltFilter=1`, { token: admin });
      if (!(await refusedNaming(res, 'misspeltFilter', true))) ignored.push(`${route.route} → ${res.status}`);
    }
    expect(ignored).toEqual([]);
  });

  it('answer 400 naming a typed filter given a value outside its enum, boolean, date or id format, on every list', async () => {
    const checked: string[] = [];
    const accepted: string[] = [];
    for (const route of describedRoutes(h.app.routes)) {
      if (route.method !== 'GET' || !route.doc?.list) continue;
      const path = pathWith(route.path, '1');
      for (const [name, param] of Object.entries(route.doc.list.filters ?? {})) {
        const schema = JSON.stringify(param.schema);
        // A value no enum, boolean, date, date-time or id pattern takes.
        if (!/"enum"|"format"|"pattern"/.test(schema)) continue;
        checked.push(`${route.route} ${name}`);
        const res = await h.request('GET', `${path}?${encodeURIComponent(name)}=not-a-value`, { token: admin });
        if (!(await refusedNaming(res, name))) accepted.push(`${route.route} ${name} → ${res.status}`);
      }
    }
    for (const filter of [
      'GET /api/rms-providers kind',
      'GET /api/generic-messages messageType',
      'GET /api/rms-audits status',
      'GET /api/rms-audits from',
      'GET /api/users isActive',
      'GET /api/languages isActive',
      'GET /api/engagements phase',
      'GET /api/sponsors isActive',
      'GET /api/engagements-o-files engagementId',
      'GET /api/referral-reasons status',
      'GET /api/media-channel-surveys mediaChannelId',
      'GET /api/engagements-options optionId',
      'GET /api/engagements-site-locations siteLocationId',
      'GET /api/site-coordinators siteLocationId',
      'GET /api/indications isActive',
      'GET /api/o-forms/o-form-messages o_form_version_id',
      'GET /api/contact-fields-screeners screenerId',
      'GET /api/screener-surveys screenerId',
      'GET /api/screeners sponsorId',
      'GET /api/screeners/languages-screeners screenerId',
      'GET /api/leads kind',
      'GET /api/leads withinReach',
      'GET /api/leads to',
      'GET /api/messages channel',
      'GET /api/messages referralId',
      'GET /api/site-performance from',
      'GET /api/audit-events actorUserId',
      'GET /api/audit-events from',
    ]) {
      expect(checked).toContain(filter);
    }
    expect(accepted).toEqual([]);
  });
});

describe('every other route answering JSON', () => {
  it('answers 400 naming a query parameter its description does not declare, before reading anything else', async () => {
    const routes = describedRoutes(h.app.routes).filter((r) => {
      const answer = r.doc?.answer;
      // A page or a file is held to its query only when it declares one (server/openapi/describe.ts).
      const pageOrFile = answer && ('redirect' in answer || 'media' in answer) && !r.doc?.query;
      return r.path.startsWith('/api/') && r.doc && !r.doc.list && !(answer && 'list' in answer) && !pageOrFile;
    });
    expect(routes.length).toBeGreaterThan(100);
    expect(new Set(routes.map((r) => r.method))).toEqual(new Set(['GET', 'POST', 'PATCH', 'DELETE']));
    const ignored: string[] = [];
    for (const route of routes) {
      const path = pathWith(route.path, '1');
      const res = await h.request(route.method, `${path}?misspeltParameter=1`, { token: admin });
      if (!(await refusedNaming(res, 'misspeltParameter'))) ignored.push(`${route.route} → ${res.status}`);
    }
    expect(ignored).toEqual([]);
  });

  it("refuses a staff route's declared parameter given a bad value or twice, before looking for the path's record", async () => {
    const checked: string[] = [];
    const accepted: string[] = [];
    for (const route of describedRoutes(h.app.routes)) {
      const doc = route.doc;
      if (!doc?.query || doc.list || doc.read || (doc.access !== undefined && doc.access !== 'staff')) continue;
      // An id no record has: a 404 here would mean the query was read after the record.
      const path = pathWith(route.path, '999999');
      for (const [name, param] of Object.entries(doc.query)) {
        if (!/"enum"|"format"|"pattern"/.test(JSON.stringify(param.schema))) continue;
        checked.push(`${route.route} ${name}`);
        for (const query of [
          `${encodeURIComponent(name)}=${encodeURIComponent('not a value!')}`,
          `${encodeURIComponent(name)}=1&${encodeURIComponent(name)}=1`,
        ]) {
          const res = await h.request(route.method, `${path}?${query}`, { token: admin });
          if (!(await refusedNaming(res, name))) accepted.push(`${route.route} ?${query} → ${res.status}`);
        }
      }
    }
    for (const parameter of ['GET /api/referrals/:id/timeline page', 'GET /api/recruitment-funnel groupBy', 'POST /api/resend-rms-audit/:contactId again']) {
      expect(checked).toContain(parameter);
    }
    expect(accepted).toEqual([]);
  });

  it("takes what the description declares: a single read's include and fields, a participant call's own parameters", async () => {
    const sponsor = await h.request('GET', '/api/sponsors/1?include=country&fields[sponsors]=name', { token: admin });
    expect(sponsor.status).not.toBe(400);
    const wholeList = await h.request('GET', '/api/message-templates?page=1&limit=500', { token: admin });
    expect(wholeList.status).toBe(200);
    const badPage = await h.request('GET', '/api/message-templates?page=0', { token: admin });
    expect(badPage.status).toBe(400);
  });
});
