/** The option lists screens' filters ask for, in one place: the screens ask, and their routes ask ahead (routing/ahead.ts). */
export const ENGAGEMENT_OPTION_PARAMS = { limit: 1000, sort: 'name' };
export const SCREENER_OPTION_PARAMS = { limit: 1000, sort: 'title' };
export const CHANNEL_OPTION_PARAMS = { limit: 1000, sort: 'title' };
export const RMS_PROVIDER_OPTION_PARAMS = { limit: 1000, sort: 'name' };
