/**
 * The demo's history: what the staff who set up the Healthy Heart Study would have left in the
 * audit trail — the engagement, screener, channel and a site created weeks ago, then a few
 * changes since — written through the trail itself so the chain verifies. A first-time user
 * opening History on those records sees what the panel is for.
 */
import { asc } from 'drizzle-orm';
import { changedFields, recordAudit, type AuditInput } from '../audit/trail';
import type { Db } from '../db/open';
import { users } from '../db/schema';
import { DAY_MS } from '@core/time';

export interface DemoRecords {
  sponsorId: number;
  engagementId: number;
  screenerId: number;
  mediaChannelId: number;
  siteLocationId: number;
}

export async function seedDemoHistory(db: Db, records: DemoRecords, now: Date): Promise<void> {
  // The installation's first user is the Admin the seed created; without one, the system did it.
  const [first] = await db.select({ id: users.id, username: users.username }).from(users).orderBy(asc(users.id)).limit(1);
  const actor = first ?? null;
  const at = (daysAgo: number, hour: number) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - daysAgo * DAY_MS + hour * 3600_000);
  // Changes as the trail records a real write's: a creation's new values, an update's old and new.
  const created = (values: Record<string, unknown>) => changedFields(null, values);
  const events: Omit<AuditInput, 'actor' | 'clientAddress' | 'meta'>[] = [
    {
      occurredAt: at(44, 9),
      entity: 'engagements',
      entityId: records.engagementId,
      action: 'create',
      changes: created({ name: 'Healthy Heart Study', phase: 'III', radius: 15, sponsorId: records.sponsorId }),
    },
    { occurredAt: at(44, 10), entity: 'screeners', entityId: records.screenerId, action: 'create', changes: created({ title: 'Healthy Heart screener' }) },
    {
      occurredAt: at(43, 14),
      entity: 'media-channels',
      entityId: records.mediaChannelId,
      action: 'create',
      changes: created({ title: 'Demo partner page', domain: 'healthy-living.example', channelType: 'Partner Website' }),
    },
    { occurredAt: at(30, 11), entity: 'engagements', entityId: records.engagementId, action: 'update', changes: changedFields({ radius: 15 }, { radius: 25 }) },
    {
      occurredAt: at(21, 16),
      entity: 'site-locations',
      entityId: records.siteLocationId,
      action: 'update',
      changes: changedFields({ streetAddress: '350 Fifth Avenue' }, { streetAddress: '350 5th Ave' }),
    },
    {
      occurredAt: at(9, 15),
      entity: 'engagements',
      entityId: records.engagementId,
      action: 'update',
      changes: changedFields(
        { description: 'A demo study of a blood pressure treatment.' },
        { description: 'A demo study of a new blood pressure treatment.' },
      ),
    },
  ];
  for (const event of events) await recordAudit(db, { ...event, actor, clientAddress: null, meta: { demo: true } });
}
