/** What other areas may use of rms. */
export { deliveredJoin, isDeliveredJoined, isDeliveredReferral } from './delivered';
export { enqueueDelivery, noteDuplicate } from './outbox';
export { deliverSoon, deliveryOptionsOf } from './worker';
export { openContactValues } from './payload';
