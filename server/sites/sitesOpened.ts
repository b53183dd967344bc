/**
 * What happens when sites open for engagements: a link made, re-activated or uploaded, or a
 * site re-activated or moved. The leads waiting for a site near them are matched to it, but
 * the leads area builds on the participant's rules, which build on these sites' caps; so the
 * sites area only says that sites opened, and the app hands its routes the listener at
 * start-up (server/app.ts).
 */
import type { Deps } from '../context';

/** Called after sites opened for `engagementIds`, before the request is answered. */
export type SitesOpened = (deps: Deps, engagementIds: readonly number[]) => Promise<unknown>;
