/**
 * What a participant texts back (the provider's inbound webhook): a STOP keyword opts the number
 * out at once for every engagement (its keyed hash is kept, never the number) and cancels the
 * texts still waiting for it; HELP is answered with a help text. Anything else is ignored.
 */
import type { Db } from '../db/open';
import type { ContactMatcher } from '../security/contactMatch';
import { optOutNumber } from './outbox';
import { keywordOf, type Keyword } from './sms';

/** Applies a text the number `from` sent; answers the keyword it was. */
export async function applyInboundText(db: Db, matcher: ContactMatcher, from: string, body: string, now: Date): Promise<Keyword> {
  const keyword = keywordOf(body);
  if (keyword === 'stop') {
    const match = matcher.phone(from);
    if (match) await optOutNumber(db, match, now);
  }
  return keyword;
}
