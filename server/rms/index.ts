/** What other areas may use of rms. */
export { enqueueDelivery, noteDuplicate } from './outbox';
export { deliverSoon, deliveryOptionsOf } from './worker';
