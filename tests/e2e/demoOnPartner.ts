/**
 * The demo survey embedded on a partner's website, as the widget's browser tests start it: the
 * real server on its own data folder (migrated, seeded with the demo), the demo channel's domain
 * set to the partner's host, and the partner's site on another origin under a strict CSP.
 * `prepare` writes what a test needs beyond the demo (more channels, a record system) before
 * the server starts. One browser comes with it, for the file's participants and staff.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { inject } from 'vitest';
import { eq } from 'drizzle-orm';
import { launchBrowser } from './browser';
import { prepareDataDir, startServer, tempDataDir, type RunningServer } from './server';
import { magazinePage, PARTNER_HOST, startPartnerSite, type PartnerSite } from './partnerSite';
import { adminToken, apiCaller } from './admin-session';
import { startLatencyProxy, type LatencyProxy } from '../support/latencyProxy';
import { demoChannel, DEMO_ENGAGEMENT } from '../../server/demo';
import { engagements, mediaChannels, rmsProviders } from '../../server/db/schema';
import type { Db } from '../../server/db/open';

export interface DemoIds {
  mediaChannelId: number;
  screenerId: number;
}

export interface DemoOnPartner {
  server: RunningServer;
  partner: PartnerSite;
  browser: Browser;
  /** The demo channel's and screener's ids, as the snippet's attributes carry them. */
  channelId: string;
  screenerId: string;
  stop(): Promise<void>;
}

export async function startDemoOnPartner(
  options: { env?: Record<string, string>; prepare?: (db: Db, demo: DemoIds) => Promise<void> } = {},
): Promise<DemoOnPartner> {
  const dataDir = tempDataDir();
  const found: { demo?: DemoIds } = {};
  await prepareDataDir(dataDir, async (db) => {
    const ids = await demoChannel(db);
    if (!ids) throw new Error('the demo data has no channel');
    await db.update(mediaChannels).set({ domain: PARTNER_HOST }).where(eq(mediaChannels.id, ids.mediaChannelId));
    await options.prepare?.(db, ids);
    found.demo = ids;
  });
  const { demo } = found;
  if (!demo) throw new Error('the demo data has no channel');
  const server = await startServer({ dataDir, env: { DIST_DIR: inject('distDir'), ...options.env } });
  const partner = await startPartnerSite(server.url);
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await partner.close();
    await server.stop();
    throw error;
  });
  return {
    server,
    partner,
    browser,
    channelId: String(demo.mediaChannelId),
    screenerId: String(demo.screenerId),
    async stop() {
      await browser.close();
      await partner.close();
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** startDemoOnPartner's demo, with a JSON:API caller signed in as the admin on its server. */
export async function startDemoWithAdmin(
  options: Parameters<typeof startDemoOnPartner>[0] = {},
): Promise<{ demo: DemoOnPartner; api: ReturnType<typeof apiCaller> }> {
  const demo = await startDemoOnPartner(options);
  const token = await adminToken(demo.server.url).catch(async (error: unknown) => {
    await demo.stop();
    throw error;
  });
  return { demo, api: apiCaller(demo.server.url, () => token) };
}

/**
 * startDemoOnPartner's demo reached only through a proxy that adds `roundTripMs` to every request
 * and logs each one: a partner site of its own embeds the widget from the proxy's address.
 */
export interface DemoBehindLatency {
  demo: DemoOnPartner;
  proxy: LatencyProxy;
  /** The partner's magazine page, its snippet pointing at the proxy. */
  partnerUrl: string;
  stop(): Promise<void>;
}

export async function startDemoBehindLatency(roundTripMs: number, options: Parameters<typeof startDemoOnPartner>[0] = {}): Promise<DemoBehindLatency> {
  const demo = await startDemoOnPartner(options);
  let proxy: LatencyProxy | undefined;
  let partner: PartnerSite | undefined;
  const stop = async () => {
    await partner?.close();
    await proxy?.close();
    await demo.stop();
  };
  try {
    proxy = await startLatencyProxy(demo.server.url, roundTripMs);
    partner = await startPartnerSite(proxy.url);
    return { demo, proxy, partnerUrl: magazinePage(partner, proxy.url, demo), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Another channel of the demo screener on the partner's host, titled and set as `values` say; its id, as a snippet carries it. */
export async function addDemoChannel(db: Db, demo: DemoIds, values: { title: string; isActive?: boolean; retakeWindowDays?: number }): Promise<string> {
  const [row] = await db
    .insert(mediaChannels)
    .values({ domain: PARTNER_HOST, screenerId: demo.screenerId, channelType: 'Partner Website', ...values })
    .returning({ id: mediaChannels.id });
  return String(row!.id);
}

/** Makes `endpointUrl` the demo engagement's record system (a webhook signed with `signingSecret`). */
export async function sendDemoReferralsTo(db: Db, provider: { name: string; endpointUrl: string; signingSecret: string }): Promise<void> {
  const [row] = await db
    .insert(rmsProviders)
    .values({ kind: 'webhook', ...provider })
    .returning({ id: rmsProviders.id });
  await db.update(engagements).set({ rmsProviderId: row!.id }).where(eq(engagements.identification, DEMO_ENGAGEMENT));
}
