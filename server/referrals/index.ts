/** What other areas may use of referrals: the scope rule, the overdue rule, what counts as delivered, and moves reported by record systems. */
export { referralScope, siteScope } from './scope';
export { overdueAt } from './queue';
export { deliveredJoin, isDeliveredJoined, isDeliveredReferral } from './delivered';
export { ReferralRefused } from './errors';
export { moveByRecordSystem, statusOfContact, type MoveOutcome } from './ladder';
export { referralReasonsRoutes, referralsRoutes } from './routes';
export { sitePerformanceRoutes } from './performance.routes';
