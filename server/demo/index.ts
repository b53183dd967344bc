/** What other areas may use of the demo data. */
export { DEMO_COORDINATOR, DEMO_COORDINATOR_EMAIL, DEMO_ENGAGEMENT, DEMO_SURVEY_IDENTITY, demoChannel, seedDemoRun } from './demo';
export { DEMO_RECORD_SYSTEM } from './demoReferrals';
