export function StatusBadge({ active }: { active: boolean }) {
  return <span className={active ? 'badge badge-active' : 'badge badge-inactive'}>{active ? 'Active' : 'Inactive'}</span>;
}
