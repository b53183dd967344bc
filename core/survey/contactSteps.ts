/**
 * A qualified participant's steps after the survey (SPEC section 4's run, continued): the ZIP
 * code, the trial sites nearest first, the screener's contact form and the consent, sent as one
 * contact; then `completed`. Going back between them makes no call and keeps what was entered.
 *
 * At notQualified, noTrialSites and notActive the same contact step is a lead's form (`lead` in
 * the state): the outcome's message pair, the screener's fields and the consent box in one form,
 * sent as a lead, or "No thanks", which ends with the outcome and stores nothing.
 *
 * The runner (./runner.ts) loads this module when the participant qualifies, so the widget can
 * ship it as a second file fetched while the survey is answered.
 */
import { validateParticipantValue as validateValue, type ParticipantRule as Rule } from '../validation/ruleCheck';
import { kindRules } from './answers';
import { contactFieldRules, normalizeContactValue, type ContactValue } from './contact';
import type { ContactSteps, ContactTransport, FieldErrors, Outcome, OutcomeMessages, Phase, RunContext, RunnerSnapshot } from './runner';

/** Where Back leads from each step; the ZIP step is the first. */
const PREVIOUS: Partial<Record<Phase, Phase>> = { consent: 'contact', contact: 'sites', sites: 'zip' };

/** The steps, begun once the participant qualified (or offering a lead's form at another outcome). */
export interface StartedSteps extends ContactSteps {
  /** The lead's form of `outcome` (ZIP: the one the sites were searched for), else the outcome itself. */
  offer(outcome: Outcome, messages: OutcomeMessages, zip?: string): Promise<void>;
  /**
   * Searches sites for `zip` (a ZIP answered on the survey's path, or the one of a snapshot),
   * else asks for it; from a snapshot, carries on to the step it names.
   */
  begin(zip: string, place?: RunnerSnapshot): Promise<void>;
}

export function createContactSteps(context: RunContext, submissionId: string, transport: ContactTransport): StartedSteps {
  const { set, attempt, end } = context;
  const state = context.state;
  const language = () => state().language;
  // The channel's region: its postal codes are what ZIPs take. Outside the US its country is the
  // one sites are searched in and a lead's postal code is in, until the participant picks another.
  const region = state().survey?.region;
  const home = region || '';
  const zipRules = (r?: string): Rule[] => ['required', ...kindRules('zip', r)];
  set({ country: home });

  const findSites = async (zip: string) => {
    const result = await transport.sites(submissionId, zip, state().country);
    if (!result.ok) {
      set({ phase: 'zip', zip, errors: result.errors });
      return;
    }
    const messages = result.messages ?? state().messages;
    if (result.outcome !== 'qualified' || result.sites.length === 0) {
      await offer(result.outcome === 'qualified' ? 'noTrialSites' : result.outcome, messages, zip);
      return;
    }
    set({ phase: 'sites', zip, sites: result.sites, messages, errors: {} });
  };

  const contactProblems = (): FieldErrors => {
    const s = state();
    const problems: FieldErrors = s.lead && !s.acceptTerms ? { acceptTerms: validateValue(false, ['acceptTerms'], s.language) ?? '' } : {};
    for (const field of s.contactFields) {
      const problem = validateValue(normalizeContactValue(field, s.contact[field.name]), contactFieldRules(field, region), s.language);
      if (problem) problems[field.name] = problem;
    }
    return problems;
  };

  /** The contact form: a referral's (for the chosen site), or the lead's of `lead`. */
  const loadContactFields = async (lead: Outcome | null = null, zip = state().zip) => {
    const { fields, messages } = await (lead ? transport.leadFields!(submissionId, zip, state().country) : transport.contactFields(submissionId));
    const contact: Record<string, ContactValue> = {};
    // A ZIP contact field starts with the postal code the sites were searched for (not a town, nor another country's).
    const searched = state().country == home && !validateValue(zip, zipRules(region), language()) ? zip : '';
    for (const f of fields) contact[f.name] = f.fieldType === 'checkbox' ? false : f.fieldType === 'zip' ? searched : '';
    set({
      phase: lead || fields.length > 0 ? 'contact' : 'consent',
      lead,
      zip,
      contactFields: fields,
      contact,
      acceptTerms: false,
      errors: {},
      messages: messages ?? state().messages,
    });
  };

  /** Sends the contact with its consent: a referral's for the chosen site, or the lead's. */
  const send = () => {
    const { lead, contact: values, siteId, zip, country, sms } = state();
    return attempt('saving', async () => {
      const result = await (lead
        ? transport.submitLead!(submissionId, { values, acceptTerms: true, zip: zip || null, country: (zip && country) || null })
        : transport.submitContact(submissionId, { engagementSiteLocationId: siteId!, values, acceptTerms: true, smsConsent: sms }));
      if (result.ok) {
        end(lead || 'completed', result.messages ?? {});
        return;
      }
      const onContact = lead || Object.keys(result.errors).some((k) => k !== 'acceptTerms');
      set({ phase: onContact ? 'contact' : 'consent', errors: result.errors });
    });
  };

  async function offer(outcome: Outcome, messages: OutcomeMessages, zip = '') {
    // The server says which outcomes offer a lead (notQualified, noTrialSites, notActive): at
    // any other, or without a form to show, the outcome as it is.
    try {
      return await loadContactFields(outcome, zip);
    } catch {
      end(outcome, messages);
    }
  }

  return {
    offer,

    async begin(zip, place) {
      // The survey's ZIP is a postal code of the channel's region: sites are searched there with
      // it. Another country chosen before a reload: its postal code or town was not kept, so it is asked again.
      const country = place?.country ?? home;
      if (country != home || place?.step === 'zip' || validateValue(zip, zipRules(region), language())) {
        set({ phase: 'zip', zip, country, errors: {} });
        return;
      }
      await findSites(zip);
      const siteId = place?.siteId;
      if (state().phase !== 'sites' || !siteId || !state().sites.some((site) => site.id === siteId)) return;
      set({ siteId });
      // The contact details were never stored: the contact form again, empty, for the consent step too.
      if (place.step === 'contact' || place.step === 'consent') await loadContactFields();
    },

    back() {
      const { lead, phase } = state();
      // Back from a lead's form is its "No thanks": the outcome, nothing stored.
      const previous = lead ? end(lead) : PREVIOUS[phase];
      if (previous) set({ phase: previous, errors: {} });
      return !!(lead || previous);
    },

    enterZip(zip, country = state().country) {
      // The site step's, or a lead's optional ZIP where no site was searched.
      if (state().phase === 'zip' || state().lead) set({ zip, country, errors: {} });
    },

    async submitZip() {
      if (state().phase !== 'zip') return;
      const zip = state().zip.trim();
      // Outside the US the field is a postal code or a town, which the server resolves.
      const problem = validateValue(zip, state().country ? ['required'] : zipRules(), language());
      if (problem) {
        set({ errors: { zip: problem } });
        return;
      }
      await attempt('saving', () => findSites(zip));
    },

    pickSite(siteId) {
      const s = state();
      if (s.phase === 'sites' && s.sites.some((site) => site.id === siteId)) set({ siteId });
    },

    async chooseSite(siteId) {
      const s = state();
      if (s.phase !== 'sites' || !s.sites.some((site) => site.id === siteId)) return;
      set({ siteId });
      if (s.contactFields.length > 0) {
        set({ phase: 'contact', errors: {} });
        return;
      }
      await attempt('loading', loadContactFields);
    },

    setContact(name, value) {
      const s = state();
      if (s.phase !== 'contact') return;
      const { [name]: _cleared, ...errors } = s.errors;
      set({ contact: { ...s.contact, [name]: value }, errors });
    },

    submitContact() {
      const s = state();
      if (s.phase !== 'contact') return;
      const problems = contactProblems();
      if (Object.keys(problems).length > 0) set({ errors: problems });
      // A lead's form holds its consent: it is sent as it is. A referral's consent is a step of its own.
      else if (s.lead) void send();
      else set({ phase: 'consent', errors: {} });
    },

    accept(accepted, box = 'acceptTerms') {
      const { [box]: _cleared, ...errors } = state().errors;
      if (state().phase === 'consent' || state().lead) set({ [box]: accepted, errors });
    },

    async submitConsent() {
      const s = state();
      if (s.phase !== 'consent' || !s.siteId) return;
      if (!s.acceptTerms) {
        set({ errors: { acceptTerms: validateValue(false, ['acceptTerms'], s.language) ?? '' } });
        return;
      }
      await send();
    },
  };
}
