/** Whole UTC days: no leap seconds or clock changes, so every day is this long. */
export const DAY_MS = 24 * 3600 * 1000;

/** The instant a calendar day (YYYY-MM-DD) begins, in UTC. */
export const startOfDay = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** The instant after a calendar day (YYYY-MM-DD) ends, in UTC: the end of a range that includes the whole day. */
export const startOfNextDay = (day: string): Date => new Date(startOfDay(day).getTime() + DAY_MS);
