/** What other parts of the server may use of leads. */
export { participantLeadRoutes } from './participant.routes';
export { leadsRoutes } from './routes';
export { deleteExpiredLeads } from './retention';
export { matchLeadsToSites } from './siteMatches';
