/**
 * What the referral rules refuse, in the domain's words: the routes turn a refusal into a 422
 * naming the attribute, a record system's callback into a 409.
 */
export class ReferralRefused extends Error {
  /** The attribute the refusal is about (status, reasonId, nextAttemptDue…). */
  readonly attribute: string;
  constructor(attribute: string, detail: string) {
    super(detail);
    this.attribute = attribute;
  }
}
