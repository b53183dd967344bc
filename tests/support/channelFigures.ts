/** A media channel's figures before anyone has seen or run its survey, as the API answers them. */
export const NO_CHANNEL_FIGURES = {
  views: 0,
  share: 0,
  submissionsStarted: 0,
  submissionsCompleted: 0,
  submissionsQualified: 0,
  possibleRetakes: 0,
} as const;
