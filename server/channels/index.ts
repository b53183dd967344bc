/** What other areas may use of channels. */
export { channelToTake } from './take';
export { channelToFrame, parseFrameQuery, type FrameRequest } from './frame';
