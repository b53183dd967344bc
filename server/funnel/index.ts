/** What other areas may use of funnel. */
export { countView } from './views';
