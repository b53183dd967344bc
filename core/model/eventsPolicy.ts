/**
 * A media channel's events policy: what the widget announces to the partner's page
 * (core/participant/hostEvents.ts lists the events each policy fires). A page that only follows
 * "Yes" to a health question, or an outcome, tells any script of the partner's page (and the
 * analytics or ad vendors it sends to) something of the participant's health: US guidance on
 * online tracking technologies (HHS OCR, 2022, updated 2024) treats that as protected health
 * information. So the default, `minimal`, fires nothing that differs between a qualified and a
 * disqualified run.
 */

export const EVENTS_POLICIES = ['none', 'minimal', 'detailed'] as const;
export type EventsPolicy = (typeof EVENTS_POLICIES)[number];
export const DEFAULT_EVENTS_POLICY: EventsPolicy = 'minimal';
export const EVENTS_POLICY_INVALID = `Choose one of: ${EVENTS_POLICIES.join(', ')}.`;

/** What each policy means, for staff choosing one. */
export const EVENTS_POLICY_LABELS: Record<EventsPolicy, string> = {
  none: 'None: the widget announces nothing to the page',
  minimal: 'Minimal: view, start and finish only (recommended)',
  detailed: 'Detailed: every page and the outcome (health information)',
};

/** Why `detailed` is risky: shown to staff when they choose it. */
export const DETAILED_EVENTS_WARNING =
  "Detailed events name the pages a participant's answers lead to and their outcome (for example notQualified) to every script of the partner's page, including tag managers and analytics or ad vendors. Tied to a browser, that is health information (HHS OCR guidance on online tracking technologies treats it as protected health information). Choose it only for a page without third-party tags.";
