import { pathTo } from '../../routing/routes';
import type { Crumb } from '../../state/topBar';

/** SPEC's trail of a sponsor's engagements and screeners: Sponsors > the sponsor. */
export const sponsorTrail = ({ sponsorName, sponsorId }: { sponsorName: string; sponsorId: string | number }): Crumb[] => [
  { label: 'Sponsors', to: pathTo('SponsorsIndex') },
  { label: sponsorName, to: pathTo('SponsorsView', { id: sponsorId }) },
];

/** The trail of a page about one screener: Sponsors > its sponsor > the screener, then `current`. */
export const screenerTrail = (screener: { id: string; title: string; sponsorName: string; sponsorId: string | number }, current: string): Crumb[] => [
  ...sponsorTrail(screener),
  { label: screener.title, to: pathTo('ScreenerView', { screenerId: screener.id }) },
  { label: current },
];
