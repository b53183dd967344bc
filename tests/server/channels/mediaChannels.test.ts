import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { mediaChannelSurveys, mediaChannels } from '../../../server/db/schema';
import {
  CHANNEL_ISOLATION_INVALID,
  HOST_NAME_INVALID,
  MEDIA_CHANNEL_TYPE_INVALID,
  RETAKE_WINDOW_INVALID,
  embedSnippet,
  partnerCspText,
} from '@core/model/mediaChannel';
import { isHostName, isIPv4Address } from '@core/validation/rules';
import { EVENTS_POLICY_INVALID } from '@core/model/eventsPolicy';
import { CHANNEL_LOCALE_INVALID } from '@core/model/channelLocale';
import { SURVEY_NOT_IN_SCREENER } from '../../../server/channels/mediaChannels';
import { createHarness, doc, json, type Harness } from '../harness';
import { NO_CHANNEL_FIGURES } from '../../support/channelFigures';

let h: Harness;
let admin: string;
let user: string;
let screenerId: number;
let otherScreenerId: number;

async function post(path: string, type: string, attributes: Record<string, unknown>, token = admin) {
  const res = await h.request('POST', path, { token, body: doc(type, attributes) });
  return { res, body: await json(res) };
}
const channelCount = async () => (await h.db.select({ n: count() }).from(mediaChannels))[0]?.n;
const channel = (attributes: Record<string, unknown> = {}, token = admin) =>
  post(
    '/api/media-channels',
    'media-channels',
    { title: 'Partner page', domain: 'www.partner.example', screenerId, channelType: 'Partner Website', ...attributes },
    token,
  );

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  const sponsorId = Number((await post('/api/sponsors', 'sponsors', { name: 'Acme', identification: 'ACME' })).body.data.id);
  const otherSponsorId = Number((await post('/api/sponsors', 'sponsors', { name: 'Other', identification: 'OTH' })).body.data.id);
  screenerId = Number((await post('/api/screeners', 'screeners', { title: 'Heart', sponsorId })).body.data.id);
  otherScreenerId = Number((await post('/api/screeners', 'screeners', { title: 'Lung', sponsorId: otherSponsorId })).body.data.id);
  await h.createUser({ username: 'plain', roles: ['User'], sponsorIds: [sponsorId] });
  user = await h.token('plain', 'a-good-password');
});
afterAll(async () => {
  await h.close();
});

describe('host names', () => {
  it('accepts domains and refuses URLs, single labels and bad labels', () => {
    for (const ok of ['example.com', 'www.partner-site.co.uk', 'a.b', 'xn--bcher-kva.example']) expect(isHostName(ok), ok).toBe(true);
    for (const bad of [
      '',
      'https://example.com',
      'example.com/path',
      'localhost',
      '-a.com',
      'a-.com',
      'a..com',
      'exa mple.com',
      '1.2.3.4',
      'example.com:8080',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(isHostName(bad), bad).toBe(false);
    }
  });
});

describe('media channels', () => {
  it('creates with zero figures, reads, lists by title with filters, and updates', async () => {
    const { res, body } = await channel({ domain: 'WWW.Partner.Example' });
    expect(res.status).toBe(201);
    expect(body.data.attributes).toMatchObject({
      title: 'Partner page',
      domain: 'www.partner.example',
      screenerId,
      screenerName: 'Heart',
      sponsorName: 'Acme',
      channelType: 'Partner Website',
      isActive: true,
      ...NO_CHANNEL_FIGURES,
      retakeWindowDays: 30,
    });
    const id = body.data.id;
    await channel({ title: 'Another channel', channelType: 'Social Media', domain: 'social.example' });
    await channel({ title: 'Zebra', screenerId: otherScreenerId, channelType: 'Other', domain: 'z.example' });

    const list = await json(await h.request('GET', `/api/media-channels?screenerId=${screenerId}`, { token: admin }));
    expect(list.data.map((c: any) => c.attributes.title)).toEqual(['Another channel', 'Partner page']);
    const search = await json(await h.request('GET', '/api/media-channels?searchQuery=social', { token: admin }));
    expect(search.data.map((c: any) => c.attributes.title)).toEqual(['Another channel']);
    expect((await h.request('GET', '/api/media-channels?screenerId=x', { token: admin })).status).toBe(400);

    const patched = await h.request('PATCH', `/api/media-channels/${id}`, {
      token: admin,
      body: doc('media-channels', { title: 'Renamed', isActive: false }, id),
    });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data.attributes).toMatchObject({ title: 'Renamed', isActive: false, domain: 'www.partner.example' });
    expect((await json(await h.request('GET', `/api/media-channels/${id}`, { token: admin }))).data.attributes.title).toBe('Renamed');
  });

  it('answers 422 with a pointer for a bad type, domain or screener, and for figures, writing nothing', async () => {
    const before = await channelCount();
    const badType = await channel({ channelType: 'Billboard' });
    expect(badType.res.status).toBe(422);
    expect(badType.body.errors).toEqual([expect.objectContaining({ detail: MEDIA_CHANNEL_TYPE_INVALID, source: { pointer: '/data/attributes/channelType' } })]);
    const badDomain = await channel({ domain: 'https://partner.example/page' });
    expect(badDomain.res.status).toBe(422);
    expect(badDomain.body.errors[0]).toMatchObject({ detail: HOST_NAME_INVALID, source: { pointer: '/data/attributes/domain' } });
    const badScreener = await channel({ screenerId: 999999 });
    expect(badScreener.res.status).toBe(422);
    expect(badScreener.body.errors[0].source.pointer).toBe('/data/attributes/screenerId');
    const figures = await channel({ views: 10 });
    expect(figures.res.status).toBe(422);
    expect(await channelCount()).toBe(before);

    const id = (await channel({ title: 'Patch target', domain: 'p.example' })).body.data.id;
    const badPatch = await h.request('PATCH', `/api/media-channels/${id}`, { token: admin, body: doc('media-channels', { channelType: 'TV' }, id) });
    expect(badPatch.status).toBe(422);
    expect((await json(badPatch)).errors[0].source.pointer).toBe('/data/attributes/channelType');
  });

  it('keeps a retake window of 0 to 3650 whole days (default 30), refusing anything else with a pointer and writing nothing', async () => {
    const { res, body } = await channel({ title: 'Testing channel', domain: 'testing.example', retakeWindowDays: 0 });
    expect(res.status).toBe(201);
    expect(body.data.attributes.retakeWindowDays).toBe(0);
    const id = body.data.id;
    const patch = (retakeWindowDays: unknown) =>
      h.request('PATCH', `/api/media-channels/${id}`, { token: admin, body: doc('media-channels', { retakeWindowDays }, id) });
    expect((await json(await patch(3650))).data.attributes.retakeWindowDays).toBe(3650);
    const before = await channelCount();
    for (const bad of [-1, 3651, 2.5, '30', null]) {
      const created = await channel({ title: 'Bad window', domain: 'bad.example', retakeWindowDays: bad });
      expect(created.res.status, String(bad)).toBe(422);
      expect(created.body.errors[0]).toMatchObject({ detail: RETAKE_WINDOW_INVALID, source: { pointer: '/data/attributes/retakeWindowDays' } });
      const patched = await patch(bad);
      expect(patched.status, String(bad)).toBe(422);
      expect((await json(patched)).errors[0].source.pointer).toBe('/data/attributes/retakeWindowDays');
    }
    expect(await channelCount()).toBe(before);
    expect((await json(await h.request('GET', `/api/media-channels/${id}`, { token: admin }))).data.attributes.retakeWindowDays).toBe(3650);
  });

  it('keeps a User to the channels of their sponsors', async () => {
    const list = await json(await h.request('GET', '/api/media-channels?limit=100', { token: user }));
    expect(list.data.every((c: any) => c.attributes.screenerId === screenerId)).toBe(true);
    const zebra = (await json(await h.request('GET', '/api/media-channels?searchQuery=Zebra', { token: admin }))).data[0].id;
    expect((await h.request('GET', `/api/media-channels/${zebra}`, { token: user })).status).toBe(404);
    expect((await channel({ screenerId: otherScreenerId }, user)).res.status).toBe(422);
    expect((await channel({ title: 'Users own', domain: 'own.example' }, user)).res.status).toBe(201);
  });

  it('links survey identities of its screener, lists them and toggles each link', async () => {
    const id = Number((await channel({ title: 'With surveys', domain: 'surveys.example' })).body.data.id);
    expect((await post('/api/screener-surveys', 'screener-surveys', { screenerId, oFormIdentity: 'intake' })).res.status).toBe(201);
    const notServed = await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: id, oFormIdentity: 'elsewhere' });
    expect(notServed.res.status).toBe(422);
    expect(notServed.body.errors[0].detail).toBe(SURVEY_NOT_IN_SCREENER);
    const link = await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: id, oFormIdentity: 'intake' });
    expect(link.res.status).toBe(201);
    expect(link.body.data.attributes).toEqual({ mediaChannelId: id, oFormIdentity: 'intake', isActive: true, title: null, version: null, isApproved: null });
    expect((await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: id, oFormIdentity: 'intake' })).res.status).toBe(409);
    const linkId = link.body.data.id;
    const off = await h.request('PATCH', `/api/media-channel-surveys/${linkId}`, {
      token: admin,
      body: doc('media-channel-surveys', { isActive: false }, linkId),
    });
    expect((await json(off)).data.attributes.isActive).toBe(false);
    const list = await json(await h.request('GET', `/api/media-channel-surveys?mediaChannelId=${id}`, { token: admin }));
    expect(list.data).toHaveLength(1);
    expect(list.data[0].attributes).toMatchObject({ oFormIdentity: 'intake', isActive: false });
    expect((await h.db.select({ n: count() }).from(mediaChannelSurveys))[0]?.n).toBe(1);
  });

  it('writes the snippet the widget reads, with a blank attribute for each declared hidden field', () => {
    expect(embedSnippet('https://trial.example/', '12', 3)).toBe(
      '<div data-trial-widget style="display:block;min-height:26em"></div><script async src="https://trial.example/widget.js" data-media-channel-id="12" data-screener-id="3"></script>',
    );
    expect(embedSnippet('https://trial.example', '12', 3, [{ name: 'partner_id' }, { name: 'placement' }])).toBe(
      '<div data-trial-widget style="display:block;min-height:26em"></div><script async src="https://trial.example/widget.js" data-media-channel-id="12" data-screener-id="3" data-field-partner_id="" data-field-placement=""></script>',
    );
    // A framed channel's script asks widget.js for the frame; the partner's CSP then allows the frame, not the calls.
    expect(embedSnippet('https://trial.example', '12', 3, [{ name: 'partner_id' }], 'frame')).toBe(
      '<div data-trial-widget style="display:block;min-height:26em"></div><script async src="https://trial.example/widget.js" data-media-channel-id="12" data-screener-id="3" data-field-partner_id="" data-isolation="frame"></script>',
    );
    expect(partnerCspText('https://trial.example/')).toBe('script-src https://trial.example; connect-src https://trial.example');
    expect(partnerCspText('https://trial.example/', 'frame')).toBe('script-src https://trial.example; frame-src https://trial.example');
  });
});

describe('what a channel serves', () => {
  interface AttributeRule {
    fallback: string;
    accepted: [given: string, kept: string][];
    bad: unknown[];
    detail: string;
  }

  /**
   * A new channel's `attribute`: `fallback` when not given; each patch of `accepted` keeps its
   * value as written there; each of `bad` refused with `detail` at the attribute's pointer, on a
   * create and on a patch, writing nothing; the last accepted value is what is then read. The
   * channel's id.
   */
  async function keepsAttribute(attribute: string, rule: AttributeRule): Promise<string> {
    const { res, body } = await channel({ title: `${attribute} channel`, domain: `${attribute.toLowerCase()}.example` });
    expect(res.status).toBe(201);
    expect(body.data.attributes[attribute]).toBe(rule.fallback);
    const id = body.data.id;
    const patch = (value: unknown) =>
      h.request('PATCH', `/api/media-channels/${id}`, { token: admin, body: doc('media-channels', { [attribute]: value }, id) });
    for (const [given, kept] of rule.accepted) expect((await json(await patch(given))).data.attributes[attribute], given).toBe(kept);
    const before = await channelCount();
    const pointer = `/data/attributes/${attribute}`;
    for (const bad of rule.bad) {
      const created = await channel({ title: `Bad ${attribute}`, domain: `bad-${attribute.toLowerCase()}.example`, [attribute]: bad });
      expect(created.res.status, String(bad)).toBe(422);
      expect(created.body.errors[0]).toMatchObject({ detail: rule.detail, source: { pointer } });
      const patched = await patch(bad);
      expect(patched.status, String(bad)).toBe(422);
      expect((await json(patched)).errors[0].source.pointer).toBe(pointer);
    }
    expect(await channelCount()).toBe(before);
    expect((await json(await h.request('GET', `/api/media-channels/${id}`, { token: admin }))).data.attributes[attribute]).toBe(rule.accepted.at(-1)![1]);
    return id;
  }

  const attributeRules: { name: string; attribute: string; rule: AttributeRule }[] = [
    {
      name: 'keeps what the widget announces to the page: minimal by default, none or detailed, refusing anything else with a pointer and writing nothing',
      attribute: 'eventsPolicy',
      rule: {
        fallback: 'minimal',
        accepted: [
          ['detailed', 'detailed'],
          ['none', 'none'],
        ],
        bad: ['all', '', 1, null, 'Minimal'],
        detail: EVENTS_POLICY_INVALID,
      },
    },
    {
      name: 'keeps its locale: en-US by default, a language and a region written as en-CA, anything else refused with a pointer and nothing written',
      attribute: 'locale',
      rule: {
        fallback: 'en-US',
        accepted: [
          ['en_ca', 'en-CA'],
          [' ES-es ', 'es-ES'],
        ],
        bad: ['Canada', 'en', 'en-CAN', '', 1, null],
        detail: CHANNEL_LOCALE_INVALID,
      },
    },
  ];
  for (const { name, attribute, rule } of attributeRules) {
    it(name, async () => {
      await keepsAttribute(attribute, rule);
    });
  }

  it('keeps how the snippet shows the widget: none by default, or frame, refusing anything else with a pointer and writing nothing', async () => {
    await keepsAttribute('isolation', {
      fallback: 'none',
      accepted: [['frame', 'frame']],
      bad: ['iframe', '', 1, null, 'Frame', true],
      detail: CHANNEL_ISOLATION_INVALID,
    });
    const created = await channel({ title: 'Framed from the start', domain: 'framed.example', isolation: 'frame' });
    expect(created.body.data.attributes.isolation).toBe('frame');
    const listed = await json(
      await h.request('GET', '/api/media-channels?fields[media-channels]=title,isolation&searchQuery=framed.example', { token: admin }),
    );
    expect(listed.data.map((c: { attributes: unknown }) => c.attributes)).toEqual([{ title: 'Framed from the start', isolation: 'frame' }]);
  });

  it("names what the participant start runs: the screener's active surveys, or the channel's own active links when it names any", async () => {
    const sponsorId = Number((await post('/api/sponsors', 'sponsors', { name: 'Served Co', identification: 'SERVED' })).body.data.id);
    const engagementId = Number((await post('/api/engagements', 'engagements', { name: 'Served Study', identification: 'SRV', sponsorId })).body.data.id);
    const servedScreener = Number((await post('/api/screeners', 'screeners', { title: 'Served screener', sponsorId })).body.data.id);
    const survey = async (title: string) => {
      const form = (await post('/api/o-forms/o-forms', 'o-forms', { title, engagementId })).body.data;
      const page = form.relationships.oFormContainers.data[0].id;
      expect((await post('/api/o-forms/o-form-fields', 'o-form-fields', { containerId: Number(page), title: 'Age?' })).res.status).toBe(201);
      return { id: form.id as string, identity: form.attributes.identity as string };
    };
    const approve = (id: string) =>
      h.request('PATCH', `/api/o-forms/o-form-versions/${id}`, { token: admin, body: doc('o-form-versions', { mark_approved: true }, id) });
    const draft = await survey('Draft only');
    const approved = await survey('Heart check');
    expect((await approve(approved.id)).status).toBe(200);
    // The next version of the approved survey is a draft: the approved one still names it.
    expect((await post('/api/o-forms/o-form-copy', 'o-form-copy', { copy_identity: approved.identity })).res.status).toBe(201);
    await post('/api/screener-surveys', 'screener-surveys', { screenerId: servedScreener, oFormIdentity: draft.identity, displayOrder: 1 });
    await post('/api/screener-surveys', 'screener-surveys', { screenerId: servedScreener, oFormIdentity: approved.identity, displayOrder: 2 });
    // Surveys to pick: one per identity, named by its approved version, else its latest.
    const pickable = async (query: string) =>
      (await json(await h.request('GET', `/api/o-forms/o-forms?currentOnly=true&sort=title&sponsorId=${sponsorId}${query}`, { token: admin }))).data.map(
        (d: any) => [d.attributes.title, d.attributes.version, d.attributes.isApproved],
      );
    expect(await pickable('')).toEqual([
      ['Draft only', 1, false],
      ['Heart check', 1, true],
    ]);
    expect(await pickable('&searchQuery=heart')).toEqual([['Heart check', 1, true]]);
    expect((await h.request('GET', '/api/o-forms/o-forms?currentOnly=maybe', { token: admin })).status).toBe(400);
    const links = (await json(await h.request('GET', `/api/screener-surveys?screenerId=${servedScreener}`, { token: admin }))).data;
    expect(links.map((l: any) => [l.attributes.title, l.attributes.version, l.attributes.isApproved])).toEqual([
      ['Draft only', 1, false],
      ['Heart check', 1, true],
    ]);
    const id = Number((await channel({ title: 'Serving', domain: 'serving.example', screenerId: servedScreener })).body.data.id);
    const served = async (token = admin) => {
      const res = await h.request('GET', `/api/media-channels/${id}/served-surveys`, { token });
      expect(res.status).toBe(200);
      return (await json(res)).data.map((d: any) => d.attributes);
    };
    const started = async () => (await json(await h.request('GET', `/api/o-forms/participant-start?mediaChannelId=${id}`))).meta;

    // No links of its own: every active survey of the screener, in order; the approved one starts.
    expect(await served()).toEqual([
      { oFormIdentity: draft.identity, title: 'Draft only', version: 1, isApproved: false, starts: false },
      { oFormIdentity: approved.identity, title: 'Heart check', version: 1, isApproved: true, starts: true },
    ]);
    expect(await started()).toMatchObject({ runnable: true, oFormIdentity: approved.identity, oFormId: approved.id });

    // Naming its own surveys, the channel serves only those that are active.
    const link = (await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: id, oFormIdentity: draft.identity })).body.data;
    expect(link.attributes).toMatchObject({ title: 'Draft only', version: 1, isApproved: false });
    expect(await served()).toEqual([{ oFormIdentity: draft.identity, title: 'Draft only', version: 1, isApproved: false, starts: false }]);
    expect((await started()).runnable).toBe(false);
    await h.request('PATCH', `/api/media-channel-surveys/${link.id}`, { token: admin, body: doc('media-channel-surveys', { isActive: false }, link.id) });
    expect(await served()).toEqual([]);

    // Nothing starts on an inactive channel, and another sponsor's User cannot ask.
    await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: id, oFormIdentity: approved.identity });
    expect((await served()).map((s: any) => [s.title, s.starts])).toEqual([['Heart check', true]]);
    await h.request('PATCH', `/api/media-channels/${id}`, { token: admin, body: doc('media-channels', { isActive: false }, String(id)) });
    expect((await served()).map((s: any) => [s.title, s.starts])).toEqual([['Heart check', false]]);
    expect((await started()).runnable).toBe(false);
    expect((await h.request('GET', `/api/media-channels/${id}/served-surveys`, { token: user })).status).toBe(404);
    expect((await h.request('GET', '/api/media-channels/abc/served-surveys', { token: admin })).status).toBe(404);
  });
});

describe('media channel for a survey transition', () => {
  it('resolves to the channel serving the target survey, preferring the same channel and screener, publicly', async () => {
    const from = Number((await channel({ title: 'From', domain: 'from.example' })).body.data.id);
    const sibling = Number((await channel({ title: 'Sibling', domain: 'sibling.example' })).body.data.id);
    await post('/api/screener-surveys', 'screener-surveys', { screenerId, oFormIdentity: 'second' });
    await post('/api/screener-surveys', 'screener-surveys', { screenerId: otherScreenerId, oFormIdentity: 'second' });
    const other = Number((await channel({ title: 'Other sponsor', domain: 'other.example', screenerId: otherScreenerId })).body.data.id);
    await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: other, oFormIdentity: 'second' });
    const resolve = () => h.request('GET', `/api/get-media-channel-for-transition-survey/second/${from}`);
    // Only another sponsor's channel serves it: not found.
    expect((await resolve()).status).toBe(404);

    const link = (await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: sibling, oFormIdentity: 'second' })).body.data.id;
    const res = await resolve();
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ type: 'media-channels', id: String(sibling), attributes: { screenerId, oFormIdentity: 'second' } });

    await post('/api/media-channel-surveys', 'media-channel-surveys', { mediaChannelId: from, oFormIdentity: 'second' });
    expect((await json(await resolve())).data.id).toBe(String(from));

    await h.request('PATCH', `/api/media-channels/${from}`, { token: admin, body: doc('media-channels', { isActive: false }, String(from)) });
    expect((await resolve()).status).toBe(404);
    await h.request('PATCH', `/api/media-channels/${from}`, { token: admin, body: doc('media-channels', { isActive: true }, String(from)) });
    await h.request('PATCH', `/api/media-channel-surveys/${link}`, { token: admin, body: doc('media-channel-surveys', { isActive: false }, link) });
    expect((await json(await resolve())).data.id).toBe(String(from));
    expect((await h.request('GET', `/api/get-media-channel-for-transition-survey/bad%20id/${from}`)).status).toBe(404);
    expect((await h.request('GET', '/api/get-media-channel-for-transition-survey/second/abc')).status).toBe(404);
    // The widget asks from the partner's page: CORS for the channel's own domain only.
    const across = (origin: string) =>
      h.request('GET', `/api/get-media-channel-for-transition-survey/second/${from}?mediaChannelId=${from}`, { headers: { Origin: origin } });
    const partner = await across('https://from.example');
    expect(partner.status).toBe(200);
    expect(partner.headers.get('access-control-allow-origin')).toBe('https://from.example');
    expect((await across('https://elsewhere.example')).status).toBe(403);
  });
});

describe('a channel served by address', () => {
  it('takes an IPv4 address as a channel domain (a page served by address has it as its Origin), and refuses a malformed one', async () => {
    for (const ok of ['10.0.0.5', '192.168.1.20', '255.255.255.255']) expect(isIPv4Address(ok), ok).toBe(true);
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4.5', '1.2.3.4:80']) expect(isIPv4Address(bad), bad).toBe(false);
    const { res, body } = await channel({ title: 'Intranet page', domain: '10.0.0.5' });
    expect(res.status).toBe(201);
    expect(body.data.attributes.domain).toBe('10.0.0.5');
    const refused = await channel({ title: 'Bad address', domain: '300.0.0.5' });
    expect(refused.res.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ detail: HOST_NAME_INVALID, source: { pointer: '/data/attributes/domain' } });
  });
});
