/** What other areas may use of referrals: the scope rule, the overdue rule, and moves reported by record systems. */
export { referralScope, siteScope } from './scope';
export { overdueAt } from './queue';
export { ReferralRefused } from './errors';
export { moveByRecordSystem, statusOfContact, type MoveOutcome } from './ladder';
export { referralReasonsRoutes, referralsRoutes } from './routes';
export { sitePerformanceRoutes } from './performance.routes';
