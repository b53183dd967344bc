/**
 * The types of the widget's public `mount()` (./mount.tsx) and of its controller's options, in a
 * module that imports no widget code (no JSX, no styles) so the admin's preview can import them
 * as it loads widget.js: what the preview passes is checked against what the widget takes.
 */
import type { ContactTransport, ResumeTransport, RunnerStyles, RunnerTransport } from '@core/survey/runner';
import type { ParticipantExtras } from '@core/participant/transport';

export type WidgetTransport = RunnerTransport & Partial<ContactTransport> & Partial<ResumeTransport> & Partial<ParticipantExtras>;

export interface ControllerOptions {
  mediaChannelId: string;
  screenerId: string;
  language?: string;
  apiOrigin: string;
  /** The snippet's hidden fields (data-field-<name>), sent when the submission starts. */
  fields?: Record<string, string>;
  /**
   * The page the run names (its origin and path are stored, its campaign parameters read), when
   * not the one the widget runs in: a framed widget's partner page (`data-page-url`, which the
   * frame's page, server/web/framePage.ts, writes from what it checked). Else `location.href`.
   */
  pageUrl?: string;
  /**
   * Preview: nothing stored. The admin's preview passes its own transport (core/api/surveyPreview.ts),
   * whose qualification is the outcome chosen: qualified ends the run, a lead's outcome shows its form.
   */
  preview?: boolean;
  /** The survey identity to run (preview, or a transition survey); the channel's current one otherwise. */
  identity?: string;
  transport?: WidgetTransport;
  fetch?: typeof fetch;
  /** Receives the screener's styles once known. */
  onStyles?: (styles: RunnerStyles | undefined) => void;
  storage?: Storage | null;
  /** Names this mount's stored run among the page's widgets of the same channel (the embed's count of them). */
  mountKey?: string;
  browserLanguages?: readonly string[];
  /** The element the widget is mounted in: a view counts once at least half of it is on screen. */
  host?: HTMLElement;
  /** The run handed over to a transition survey on this channel: the widget continues there. */
  onTransition?: (next: { mediaChannelId: string; screenerId: string; identity: string }) => void;
}

/** The controller's options, less what the widget wires itself: the theme (onStyles, in mount) and the transition hand-off (App). */
export type MountOptions = Omit<ControllerOptions, 'onStyles' | 'onTransition'>;

export interface MountedWidget {
  root: ShadowRoot;
  unmount(): void;
}

/** What the widget's module exports (./embed.ts): widget.js imports it and calls `start`. */
export interface WidgetModule {
  start(): void;
  mount(element: HTMLElement, options: MountOptions): MountedWidget;
}

/** The one global widget.js defines: `ready` resolves to the widget's module once imported. */
export interface WidgetGlobal {
  ready?: Promise<WidgetModule>;
  /** Requests widget.js sent before the module loaded, by address, until the module takes them (./loader.ts). */
  early?: Record<string, Promise<Response>>;
}
