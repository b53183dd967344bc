import './components.css';
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-status" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}
