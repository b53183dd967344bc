import type { DownloadedFile } from '@core/api/client';
import type { ListParams } from '@core/jsonapi';
import { DownloadCsvButton } from '../DownloadCsvButton';

export const EXPORT_FAILED = 'Could not export the list';

/** Downloads the whole list as the screen filters and sorts it (every page), with the columns shown. */
export function ExportCsvButton({ load, params, fields }: { load: (params: ListParams) => Promise<DownloadedFile>; params: ListParams; fields: readonly string[] }) {
  const { page: _page, limit: _limit, ...rest } = params;
  return <DownloadCsvButton failed={EXPORT_FAILED} download={() => load(fields.length > 0 ? { ...rest, fields: fields.join(',') } : rest)} />;
}
