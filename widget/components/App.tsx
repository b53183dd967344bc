import type { MountOptions } from '../mount';
import { participantText } from './text';

/**
 * The runner's frame. The survey runner itself arrives with the participant-runtime issue;
 * until then the widget says plainly that the survey is not available.
 */
export function App(props: MountOptions) {
  const text = participantText(props.language);
  return (
    <section class="tw-card" aria-live="polite" data-media-channel-id={props.mediaChannelId}>
      <h2 class="tw-title">{text.title}</h2>
      <p class="tw-message">{text.unavailable}</p>
    </section>
  );
}

export function Problem(props: { message: string; language?: string }) {
  const text = participantText(props.language);
  return (
    <section class="tw-card" role="alert">
      <h2 class="tw-title">{text.title}</h2>
      <p class="tw-message">{props.message}</p>
    </section>
  );
}
