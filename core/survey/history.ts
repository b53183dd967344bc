/**
 * The pages a participant has been through. Back pops the last one; going to an earlier page
 * discards everything after it, and those pages' answers are sanitized on the server.
 */
export interface Visit {
  /** The page (container) identity. */
  page: string;
  /** Its entry id in this submission (absent in preview). */
  entryId?: string;
}

export type History = readonly Visit[];

export const visit = (history: History, entry: Visit): History => [...history, entry];

/** The history without its last page, and that page; nothing to pop on the first page. */
export function back(history: History): { history: History; left: Visit | null } {
  if (history.length <= 1) return { history, left: null };
  return { history: history.slice(0, -1), left: history[history.length - 1] ?? null };
}

/** Returns to the visit at `index`: the later visits are dropped and returned for sanitizing. */
export function revisit(history: History, index: number): { history: History; discarded: Visit[] } {
  if (index < 0 || index >= history.length) return { history, discarded: [] };
  return { history: history.slice(0, index + 1), discarded: history.slice(index + 1) };
}

export const currentVisit = (history: History): Visit | null => history[history.length - 1] ?? null;
