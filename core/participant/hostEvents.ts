/**
 * The DOM events the widget dispatches on its element for a partner's tag manager, with what
 * each means: the widget fires them (widget/hostEvents.ts), the media channel view lists them.
 * Every event's detail names the media channel and screener (`mediaChannelId`, `screenerId`),
 * never anything about the participant. Which of them the widget announces is the channel's
 * events policy (core/model/eventsPolicy.ts).
 */
import type { EventsPolicy } from '../model/eventsPolicy';

export const HOST_EVENTS = [
  { name: 'trial-widget:view', when: 'The widget is seen (half of it on screen), once per page load.' },
  { name: 'trial-widget:start', when: 'The participant answered the first page: the submission is started.' },
  { name: 'trial-widget:finish', when: "The participant answered the survey's last page, whatever the answers (no outcome)." },
  { name: 'trial-widget:page', when: 'Another page or step is shown; detail.page is the page identity, or zip, sites, contact, consent.' },
  { name: 'trial-widget:outcome', when: 'The run reached an outcome; detail.outcome names it (e.g. notQualified, completed).' },
  { name: 'trial-widget:complete', when: 'The participant sent their contact details (the channel’s Completed figure).' },
] as const;

export type HostEventName = (typeof HOST_EVENTS)[number]['name'] extends `trial-widget:${infer N}` ? N : never;

/** The events each policy announces: `detailed` is today's full set, `minimal` the same for every run. */
export const POLICY_EVENTS: Record<EventsPolicy, readonly HostEventName[]> = {
  none: [],
  minimal: ['view', 'start', 'finish'],
  detailed: ['view', 'start', 'finish', 'page', 'outcome', 'complete'],
};
