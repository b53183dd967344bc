/**
 * A participant's e-mail about a site of a study (a referral's confirmation and reminder, a
 * lead's site opening): the kind's template in their language, filled with the study, the site
 * and its town, with a one-click unsubscribe link of its own. Each message its own token, so a
 * link copied from one mail does not name another. The sender adds the kind, the engagement,
 * the referral and when it is due.
 */
import type { MessageKind } from '@core/model/message';
import type { Conn } from '../db/open';
import { newUnsubscribeToken, unsubscribeUrl } from './outbox';
import { addressedToParticipant, type Addressee } from './recipients';
import { render, type Template, templateOf } from './templates';

/** The participant's address, its keyed hash and their language. */
export interface ParticipantAddress {
  email: string;
  match: string | null;
  language: string;
}

/** What the mail names: the study, the site and the site's town. */
export interface SitePlace {
  engagement: string;
  site: string;
  town: string | null;
}

export async function participantSiteMail(
  db: Conn,
  baseUrl: string,
  kind: MessageKind,
  to: ParticipantAddress,
  place: SitePlace,
): Promise<Addressee & Template> {
  const token = newUnsubscribeToken();
  const filled = render(kind, await templateOf(db, kind, to.language), {
    engagement: place.engagement,
    site: place.site,
    town: place.town ?? '',
    unsubscribe: unsubscribeUrl(baseUrl, token),
  });
  return { ...addressedToParticipant({ language: to.language, to: to.email, toMatch: to.match, unsubscribeToken: token }), ...filled };
}
