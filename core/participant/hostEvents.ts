/**
 * The DOM events the widget dispatches on its element for a partner's tag manager, with what
 * each means: the widget fires them (widget/hostEvents.ts), the media channel view lists them.
 * Every event's detail names the media channel and screener (`mediaChannelId`, `screenerId`),
 * never anything about the participant.
 *
 * What the widget announces is the channel's choice (`eventsPolicy`). A page that only follows
 * "Yes" to a health question, or an outcome, tells any script of the partner's page (and the
 * analytics or ad vendors it sends to) something of the participant's health: US guidance on
 * online tracking technologies (HHS OCR, 2022, updated 2024) treats that as protected health
 * information. So the default, `minimal`, fires nothing that differs between a qualified and a
 * disqualified run.
 */
export const HOST_EVENTS = [
  { name: 'trial-widget:view', when: 'The widget is seen (half of it on screen), once per page load.' },
  { name: 'trial-widget:start', when: 'The participant answered the first page: the submission is started.' },
  { name: 'trial-widget:finish', when: "The participant answered the survey's last page, whatever the answers (no outcome)." },
  { name: 'trial-widget:page', when: 'Another page or step is shown; detail.page is the page identity, or zip, sites, contact, consent.' },
  { name: 'trial-widget:outcome', when: 'The run reached an outcome; detail.outcome names it (e.g. notQualified, completed).' },
  { name: 'trial-widget:complete', when: 'The participant sent their contact details (the channel’s Completed figure).' },
] as const;

export type HostEventName = (typeof HOST_EVENTS)[number]['name'] extends `trial-widget:${infer N}` ? N : never;

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

/** The events each policy announces: `detailed` is today's full set, `minimal` the same for every run. */
export const POLICY_EVENTS: Record<EventsPolicy, readonly HostEventName[]> = {
  none: [],
  minimal: ['view', 'start', 'finish'],
  detailed: ['view', 'start', 'finish', 'page', 'outcome', 'complete'],
};
