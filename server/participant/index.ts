/** What other areas may use of participant. */
export { resolveStart, runEngagements, runOfSubmission, type RunTarget, servedIdentities } from './runSurvey';
export { embedProblemsOf } from './embedProblems';
export { CHANNEL_FIGURES, type ChannelFigure, type ChannelFigures, channelFigures, countOnChannel } from './channelFigures';
export { hostMatches, isOwnOrigin, participantCors } from './cors';
export { participantCall } from './callDescription';
export { type MatchKeys, matchKeysOf } from './duplicates';
export type { SubmissionRow } from './access';
export {
  assertComplete,
  MISSING_CONTACT_TOKEN,
  openSubmission,
  type ParticipantApp,
  PLACE_QUERY,
  readAttributes,
  RUN_ALREADY_COMPLETE,
  screenerContactFields,
} from './api';
export { haversineMiles, normalizeZip, zipCentroid } from './distance';
export { outcomeMessages } from './messages';
export { qualify } from './qualification';
export { channelRegion, regionOfChannel, nearestSiteMiles, nearestSites, radiusOf, siteAt } from './sites';
export { sealClearAnswers } from './sealedAnswers';
export { COUNTRY_CODE, normalizeCountry, participantPlace } from './places';
