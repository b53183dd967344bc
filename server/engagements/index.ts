/** What other areas may use of engagements: when one stops being offered by itself. */
export { engagementPausedCondition, engagementPauses, offeredEngagements, pauseOf, screenerPauses, type ChannelPauses, TARGET_MEASURES, type EngagementPause, type TargetMeasure } from './pause';
