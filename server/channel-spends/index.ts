/** What other areas may use of channel spends: their routes. The funnel reads spends itself (funnel/costs.ts). */
export { channelSpendsRoutes } from './routes';
