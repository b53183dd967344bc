/** What other areas may use of channels. */
export { countOnChannel, countsStatement, countStatement } from './figures';
export { channelToTake } from './take';
