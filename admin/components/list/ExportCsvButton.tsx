import type { DownloadedFile } from '@core/api/client';
import type { ListParams } from '@core/jsonapi';
import { DownloadCsvButton } from '../DownloadCsvButton';
import type { Column } from './DataTable';
import { csvHeadingsOf, relabelCsv } from './csvHeadings';

export const EXPORT_FAILED = 'Could not export the list';

/** Downloads the whole list as the screen filters and sorts it (every page), with the columns shown, headed as on the screen. */
export function ExportCsvButton<T>({
  load,
  params,
  fields,
  columns = [],
}: {
  load: (params: ListParams) => Promise<DownloadedFile>;
  params: ListParams;
  fields: readonly string[];
  columns?: readonly Column<T>[];
}) {
  const { page: _page, limit: _limit, ...rest } = params;
  const download = async (): Promise<DownloadedFile> => {
    const file = await load(fields.length > 0 ? { ...rest, fields: fields.join(',') } : rest);
    const text = relabelCsv(await file.blob.text(), csvHeadingsOf(columns));
    return { ...file, blob: new Blob([text], { type: file.blob.type || 'text/csv' }) };
  };
  return <DownloadCsvButton failed={EXPORT_FAILED} download={download} />;
}
