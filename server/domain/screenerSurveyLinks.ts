/**
 * A screener's survey links as the API shows them: each link with the survey's name (the title,
 * version and approval of its current version), for the list, the writes' answers and the toggle.
 */
import { eq } from 'drizzle-orm';
import { SCREENER_SURVEY_TYPE } from '@core/model/screenerSurvey';
import type { Conn } from '../db/open';
import { oForms, screenerSurveys, screeners } from '../db/schema';
import { toResource } from '../http/serialize';
import { currentVersionId, namingColumns } from '../oform/versions';

type NamedLink = { link: typeof screenerSurveys.$inferSelect; title: string | null; version: number | null; isApproved: boolean | null };

/** Links with their screener (for the scope) and the survey's current version (for its name): add the conditions. */
export const selectScreenerSurveyLinks = (db: Conn) =>
  db
    .select({ link: screenerSurveys, ...namingColumns })
    .from(screenerSurveys)
    .innerJoin(screeners, eq(screeners.id, screenerSurveys.screenerId))
    .leftJoin(oForms, eq(oForms.id, currentVersionId(screenerSurveys.oFormIdentity)));

export const screenerSurveyResource = ({ link: { id, created, ...rest }, ...naming }: NamedLink) =>
  toResource(SCREENER_SURVEY_TYPE, id, { ...rest, ...naming, created: created.toISOString() });

/** One link as a resource, or undefined when it is gone. */
export async function readScreenerSurveyLink(db: Conn, id: number) {
  const [row] = await selectScreenerSurveyLinks(db).where(eq(screenerSurveys.id, id));
  return row && screenerSurveyResource(row);
}
