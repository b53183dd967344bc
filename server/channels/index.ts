/** What other areas may use of channels. */
export { channelToTake } from './take';
