import { useState } from 'react';
import { ApiError, type DownloadedFile } from '@core/api/client';
import { useNotify } from '../state/notices';
import { saveBlob } from './downloadBlob';

/** "Export CSV": downloads what `download` answers, busy while it runs, and says how it went (`failed` when the reason is unknown). */
export function DownloadCsvButton({ download, failed }: { download: () => Promise<DownloadedFile>; failed: string }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await download();
      saveBlob(file.blob, file.filename);
      notify('success', `Downloaded ${file.filename}.`);
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-secondary btn-small" disabled={busy} aria-busy={busy || undefined} onClick={() => void run()}>
      {busy && <span className="spinner spinner-small" aria-hidden="true" />}
      Export CSV
    </button>
  );
}
