/** A media channel's own participant page (/take/:id): which channel it opens. */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { mediaChannels } from '../db/schema';

/** The channel a shared participant page opens, with its screener; whether active or not. */
export async function channelToTake(db: Db, id: number): Promise<{ id: number; screenerId: number } | undefined> {
  const [channel] = await db.select({ id: mediaChannels.id, screenerId: mediaChannels.screenerId }).from(mediaChannels).where(eq(mediaChannels.id, id));
  return channel;
}
