import { decode, type DataDocument, type Resource, type ListParams } from '../jsonapi';
import { EngagementFile } from '../model/engagementFile';
import { dispositionFilename, parseAnswer, type ApiClient } from './client';

export function engagementFilesApi(client: ApiClient) {
  return {
    list: (params: ListParams = {}) => client.list<EngagementFile>('engagements-o-files', params),
    async upload(engagementId: string, file: Blob, filename: string): Promise<EngagementFile> {
      const form = new FormData();
      form.set('file', file, filename);
      const doc = await client.call((h) =>
        h.post(`engagements-o-files/${encodeURIComponent(engagementId)}`, { body: form, timeout: 300_000 }).json<DataDocument<Resource>>(),
      );
      return parseAnswer(EngagementFile, decode(doc), 'the upload');
    },
    /** The file's bytes, fetched with the bearer token (never a token in the URL). */
    async download(file: Pick<EngagementFile, 'id' | 'filename'>): Promise<{ blob: Blob; filename: string }> {
      const response = await client.call((h) => h.get(`engagements-o-files/${encodeURIComponent(file.id)}/download`, { timeout: 300_000 }));
      return { blob: await response.blob(), filename: dispositionFilename(response.headers.get('content-disposition')) ?? file.filename };
    },
    remove: (id: string) => client.remove(`engagements-o-files/${encodeURIComponent(id)}`),
  };
}
