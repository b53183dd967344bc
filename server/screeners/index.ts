/** What other areas may use of screeners. */
export { findScreener, screenerScope } from './access';
