/**
 * Record-system audits (SPEC section 3): one per attempt to push a participant's contact to the
 * engagement's record system, and the callback by which the record system reports a referral
 * screened or randomized.
 */
import * as v from 'valibot';
import { flag, idNumber } from './fields';

export const RMS_AUDIT_TYPE = 'rms-audits';
export const RMS_PROVIDER_TYPE = 'rms-providers';

export interface RmsAuditProvider {
  id: string;
  name: string;
  kind: 'none' | 'webhook';
}

export interface RmsAudit {
  id: string;
  contactId: number;
  created: string;
  rmsProviderId: number | null;
  rmsProviderName: string;
  succeeded: boolean;
  /** 1 for a push's first try, counting up through its retries. */
  attempt: number;
  responseMessage: string;
  responseBody: string;
  /** Present when the list was asked to include rmsProviders (null: no provider row). */
  rmsProviders?: RmsAuditProvider | null;
}

export const RMS_AUDIT_SORTS = ['created', 'contactId', 'rmsProviderName', 'succeeded'] as const;
export const RMS_AUDIT_DEFAULT_SORT = '-created';

/** The record system's callback body: which contact, and what became of its referral. */
export const RmsCallbackInput = v.strictObject({
  contactId: idNumber(),
  screened: v.optional(flag()),
  randomized: v.optional(flag()),
});
export type RmsCallbackInput = v.InferOutput<typeof RmsCallbackInput>;
