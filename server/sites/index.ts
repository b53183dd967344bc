/** What other areas may use of sites: the coordinators' routes. */
export { siteCoordinatorsRoutes } from './routes';
