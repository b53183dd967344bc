import { useCurrentRoute } from '../routing/currentRoute';

/** Stands in for the screens of sections that later issues build. */
export default function Placeholder() {
  const { route } = useCurrentRoute();
  return (
    <section className="panel placeholder">
      <h2>{route?.title}</h2>
      <p>This screen is being built.</p>
    </section>
  );
}
