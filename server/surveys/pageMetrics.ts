/**
 * Per page of a survey version, from what the server already knows (page entries are made when
 * a page is shown, marked answered when its answers are saved; page timings say how long it was
 * open):
 *
 *   views        submissions that reached the page (an entry of it exists)
 *   completions  submissions that saved the page's answers
 *   drop_off     submissions for which the page is the last one reached, that never reached the
 *                survey's end (nor left a contact), with nothing done for the abandon window
 *                (FUNNEL_ABANDON_MINUTES; 0 counts them at once)
 *   median_seconds, p90_seconds  time on the page, over the timings that have their stop
 */
import { sql } from 'drizzle-orm';
import type { SurveyPageMetrics } from '@core/model/surveyExport';
import type { Db } from '../db/open';
import { rowsOf } from '../db/rows';
import { loadStructure } from './structure';

/** One page's figures: the admin's drop-off chart reads the same shape (core/model/surveyExport.ts), with its id. */
export type PageMetrics = Omit<SurveyPageMetrics, 'id'>;

/** The value below which `share` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  if (share === 0.5) {
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

const oneDecimal = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

export async function pageMetrics(db: Db, form: { id: number }, options: { now: Date; abandonMinutes: number }): Promise<PageMetrics[]> {
  const structure = await loadStructure(db, form.id);
  const pages = structure.containers.filter((c) => c.parentId === null);
  const idle = new Date(options.now.getTime() - options.abandonMinutes * 60_000).toISOString();
  const [reached, timings] = await Promise.all([
    db.execute(sql`
      with entries as (
        select e.submission_id, e.container_id, e.answered_at, e.created, e.id
        from o_form_container_entries e
        join o_form_containers c on c.id = e.container_id
        where c.o_form_id = ${form.id}::int and e.parent_id is null
      ),
      last_reached as (
        select distinct on (submission_id) submission_id, container_id, created
        from entries order by submission_id, id desc
      )
      select c.id as container_id,
        (select count(distinct submission_id) from entries e where e.container_id = c.id) as views,
        (select count(distinct submission_id) from entries e where e.container_id = c.id and e.answered_at is not null) as completions,
        (select count(*) from last_reached l join o_form_submissions s on s.id = l.submission_id
          where l.container_id = c.id and s.finished_at is null and s.status <> 'completed'
            and greatest(s.modified, l.created) <= ${idle}::timestamptz) as drop_off
      from o_form_containers c
      where c.o_form_id = ${form.id}::int and c.parent_id is null`),
    db.execute(sql`
      select identity, array_agg(extract(epoch from (stop - start))::float8 order by stop - start) as seconds
      from o_form_page_metrics
      where o_form_id = ${form.id}::int and type = 'page' and stop is not null
      group by identity`),
  ]);
  const counts = new Map(rowsOf(reached).map((r) => [Number(r.container_id), r]));
  const seconds = new Map(rowsOf(timings).map((r) => [String(r.identity), (r.seconds as unknown[]).map((s) => Math.max(0, Number(s)))]));
  return pages.map((page, i) => {
    const row = counts.get(page.id);
    const times = seconds.get(page.identity) ?? [];
    return {
      page: i + 1,
      identity: page.identity,
      title: page.title,
      views: Number(row?.views ?? 0),
      completions: Number(row?.completions ?? 0),
      dropOff: Number(row?.drop_off ?? 0),
      medianSeconds: oneDecimal(percentile(times, 0.5)),
      p90Seconds: oneDecimal(percentile(times, 0.9)),
    };
  });
}
