import { useState } from 'react';
import { ApiError, type DownloadedFile } from '../../../core/api/client';
import type { ListParams } from '../../../core/jsonapi';
import { useNotify } from '../../state/notices';
import { saveBlob } from '../downloadBlob';

export const EXPORT_FAILED = 'Could not export the list';

/** Downloads the whole list as the screen filters and sorts it (every page), with the columns shown. */
export function ExportCsvButton({ load, params, fields }: { load: (params: ListParams) => Promise<DownloadedFile>; params: ListParams; fields: readonly string[] }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { page: _page, limit: _limit, ...rest } = params;
      const file = await load(fields.length > 0 ? { ...rest, fields: fields.join(',') } : rest);
      saveBlob(file.blob, file.filename);
      notify('success', `Downloaded ${file.filename}.`);
    } catch (error) {
      notify('error', error instanceof ApiError ? error.message : EXPORT_FAILED);
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
