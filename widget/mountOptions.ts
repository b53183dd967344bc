/**
 * The types of the widget's public `mount()` (./mount.tsx), in a module without JSX or styles so
 * the admin's preview can import them as it loads widget.js: what the preview passes is checked
 * against what the widget takes.
 */
import type { ControllerOptions } from './controller';

/** The controller's options, less what the widget wires itself: the theme (onStyles, in mount) and the transition hand-off (App). */
export type MountOptions = Omit<ControllerOptions, 'onStyles' | 'onTransition'>;

export interface MountedWidget {
  root: ShadowRoot;
  unmount(): void;
}
