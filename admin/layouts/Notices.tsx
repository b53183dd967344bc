import { useAtom } from 'jotai';
import { noticesAtom } from '../state/notices';
import './layouts.css';

/** The toasts: fixed in a corner of the window, so they cover nothing they would push aside. */
export function Notices() {
  const [notices, setNotices] = useAtom(noticesAtom);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          <span>{notice.text}</span>
          {notice.action && (
            <button type="button" className="notice-action" onClick={notice.action.run}>
              {notice.action.label}
            </button>
          )}
          <button type="button" className="notice-close" aria-label="Dismiss" onClick={() => setNotices((list) => list.filter((n) => n.id !== notice.id))}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
