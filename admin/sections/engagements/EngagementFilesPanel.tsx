import { useRef, useState } from 'react';
import { ApiError } from '@core/api/client';
import { engagementFilesApi } from '@core/api/engagementFiles';
import type { EngagementFile } from '@core/model/engagementFile';
import { formatBytes, saveBlob } from '../../components/downloadBlob';
import { formatDateTime } from '../../components/format';
import { FormErrors } from '../../components/form/FormErrors';
import { PageTable } from '../../components/list/DataTable';
import { buttonsColumn } from '../../components/list/columns';
import { RowRemoveButton } from '../../components/list/RowActions';
import { useDeleteWithConfirm } from '../../components/useDeleteWithConfirm';
import { useAsync } from '../../hooks/useAsync';
import { engagementFilesParams } from './viewCalls';
import { useNotify } from '../../state/notices';
import { useApi } from '../../state/services';
import { useBusyCall } from '../../hooks/useBusyCall';

export const UPLOAD_FAILED = 'Could not upload the file.';
export const DOWNLOAD_FAILED = 'Could not download the file.';

/** An engagement's files: upload, download (fetched with the session's token) and delete. */
export function EngagementFilesPanel({ engagementId }: { engagementId: string }) {
  const api = useApi(engagementFilesApi);
  const notify = useNotify();
  const files = useAsync(() => api.list(engagementFilesParams(engagementId)), [api, engagementId]);
  const remove = useDeleteWithConfirm(api.remove, 'File');
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyCall(setError);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    await run(async () => {
      const saved = await api.upload(engagementId, file, file.name);
      notify('success', `${saved.filename} uploaded.`);
      files.reload();
    }, UPLOAD_FAILED);
    if (input.current) input.current.value = '';
  };

  const download = async (file: EngagementFile) => {
    try {
      const { blob, filename } = await api.download(file);
      saveBlob(blob, filename);
    } catch (e) {
      notify('error', e instanceof ApiError ? e.message : DOWNLOAD_FAILED);
    }
  };

  return (
    <section className="panel" id="files" aria-labelledby="engagement-files-title">
      <div className="panel-heading">
        <h2 id="engagement-files-title">Files</h2>
        <label className="btn btn-small btn-secondary file-button">
          {busy ? 'Uploading…' : 'Attach File'}
          <input
            ref={input}
            type="file"
            className="sr-only"
            aria-label="Attach a file"
            disabled={busy}
            onChange={(event) => void upload(event.target.files?.[0])}
          />
        </label>
      </div>
      <FormErrors message={error} />
      {files.error ? (
        <FormErrors message={files.error instanceof ApiError ? files.error.message : 'Could not load data'} />
      ) : (
        <PageTable
          caption="Files"
          page={files}
          emptyMessage="No files attached."
          columns={[
            { id: 'filename', header: 'File', cell: (f) => f.filename },
            { id: 'size', header: 'Size', cell: (f) => formatBytes(f.size) },
            { id: 'created', header: 'Uploaded', cell: (f) => formatDateTime(f.created) },
            buttonsColumn<EngagementFile>('Actions', (f) => (
              <div className="row-actions">
                <button type="button" className="btn btn-small btn-secondary" onClick={() => void download(f)} aria-label={`Download ${f.filename}`}>
                  Download
                </button>
                <RowRemoveButton label={`Delete ${f.filename}`} remove={() => remove(f.id)} onRemoved={files.reload}>
                  Delete
                </RowRemoveButton>
              </div>
            )),
          ]}
        />
      )}
    </section>
  );
}
