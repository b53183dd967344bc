/** The body of widget.js (see ./loader.ts): built on its own, with the module's file name filled in. */
import { loadWidget } from './loader';

declare const __WIDGET_MODULE__: string;
declare const __FRAME_MODULE__: string;

loadWidget(
  __WIDGET_MODULE__,
  document.currentScript as HTMLScriptElement | null,
  window as { TrialWidget?: import('./mountOptions').WidgetGlobal },
  __FRAME_MODULE__,
);
