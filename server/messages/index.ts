/** What other parts of the server may use of messages: the referral's and leads' messages, the worker, the routes. */
import type { Deps } from '../context';
import { phiOf } from '../security/phi';
import type { MessageContext } from './outbox';
import { baseUrlOf } from './worker';

export { participantEmail, participantPhone } from './addresses';
export { smsConsentText } from './smsTexts';
export { enqueueReferralMessages } from './referralMessages';
export { enqueueSiteOpenedMessages } from './leadMessages';
export { messageOptionsOf, sendMessagesSoon, settleMessages, startMessageWorker } from './worker';
export { messagesRoutes, messageTemplatesRoutes, messageSettingsRoutes, messageUnsubscribeRoutes } from './routes';

export const messageContextOf = (deps: Deps): MessageContext => ({ phi: phiOf(deps), mailFrom: deps.config.mailFrom, baseUrl: baseUrlOf(deps) });
export { messageSmsInboundRoutes } from './smsInbound.routes';
