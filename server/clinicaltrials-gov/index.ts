/** What other areas may use of ClinicalTrials.gov: the routes of the site import. */
export { clinicalTrialsGovRoutes } from './routes';
