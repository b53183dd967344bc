/** What other parts of the server may use of messages: the referral's messages, the worker, the routes. */
import type { ContactFormField } from '@core/oform/contact';
import type { Deps } from '../context';
import { phiOf } from '../security/phi';
import type { MessageContext } from './referralMessages';
import { baseUrlOf } from './worker';

export { enqueueReferralMessages } from './referralMessages';
export { messageOptionsOf, sendMessagesSoon, settleMessages, startMessageWorker } from './worker';
export { messagesRoutes, messageTemplatesRoutes, messageSettingsRoutes, messageUnsubscribeRoutes } from './routes';

export const messageContextOf = (deps: Deps): MessageContext => ({ phi: phiOf(deps), mailFrom: deps.config.mailFrom, baseUrl: baseUrlOf(deps) });

/** The first e-mail field's value of a contact, when it is one. */
export function participantEmail(form: readonly ContactFormField[], values: Readonly<Record<string, unknown>>): string | null {
  const value = form.filter((f) => f.fieldType === 'email').map((f) => values[f.name]).find((v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v.trim()));
  return typeof value === 'string' ? value.trim() : null;
}
