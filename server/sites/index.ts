/** What other areas may use of sites: the coordinators' routes, and the caps that decide which sites take referrals. */
export { siteCoordinatorsRoutes } from './routes';
export { fullReason, hasRoom, linksWithRoom, siteFills, weekStart, type SiteCaps, type SiteFill } from './caps';
