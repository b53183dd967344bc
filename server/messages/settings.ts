/** Which messages an engagement sends, and after what delay: off until staff turn one on. */
import { eq } from 'drizzle-orm';
import { MESSAGE_KINDS, type MessageKind, type MessageSetting as CoreMessageSetting } from '@core/model/message';
import type { AuthUser } from '../context';
import type { Db } from '../db/open';
import { engagementMessageSettings, engagements } from '../db/schema';
import { sponsorScope } from '../auth/guards';

type MessageSetting = Omit<CoreMessageSetting, 'id'>;

/** The engagement when the user may see it (their sponsors'), else null. */
export async function visibleEngagement(db: Db, user: AuthUser, id: number | null): Promise<{ id: number } | null> {
  if (id === null) return null;
  const [row] = await db.select({ id: engagements.id, sponsorId: engagements.sponsorId }).from(engagements).where(eq(engagements.id, id));
  if (!row) return null;
  const scope = sponsorScope(user);
  return scope === null || scope.includes(row.sponsorId) ? { id: row.id } : null;
}

export async function messageSettingsOf(db: Db, engagementId: number): Promise<MessageSetting[]> {
  const rows = await db.select().from(engagementMessageSettings).where(eq(engagementMessageSettings.engagementId, engagementId));
  return MESSAGE_KINDS.map((kind) => {
    const row = rows.find((r) => r.kind === kind);
    return { engagementId, kind, isEnabled: row?.isEnabled ?? false, delayMinutes: row?.delayMinutes ?? 0 };
  });
}

export async function saveMessageSetting(
  db: Db,
  engagementId: number,
  kind: MessageKind,
  input: { isEnabled: boolean; delayMinutes: number },
  now: Date,
): Promise<void> {
  await db
    .insert(engagementMessageSettings)
    .values({ engagementId, kind, ...input, modified: now })
    .onConflictDoUpdate({ target: [engagementMessageSettings.engagementId, engagementMessageSettings.kind], set: { ...input, modified: now } });
}

/** Every message on, at once: the demo engagement's settings. */
export async function enableAllMessages(db: Db, engagementId: number): Promise<void> {
  await db
    .insert(engagementMessageSettings)
    .values(MESSAGE_KINDS.map((kind) => ({ engagementId, kind, isEnabled: true, delayMinutes: 0 })))
    .onConflictDoNothing();
}
