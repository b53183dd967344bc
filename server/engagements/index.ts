/** What other areas may use of engagements: when one stops being offered by itself, and whose engagements a user may reach. */
export {
  engagementPausedCondition,
  engagementPauses,
  offeredEngagements,
  pauseOf,
  screenerPauses,
  type ChannelPauses,
  TARGET_MEASURES,
  type EngagementPause,
  type TargetMeasure,
} from './pause';
export { engagementScope, findAccessibleEngagement, UNKNOWN_ENGAGEMENT } from './access';
