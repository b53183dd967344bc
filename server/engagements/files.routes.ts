/**
 * Files attached to engagements (SPEC sections 3, 7): list, upload (multipart, field `file`),
 * read, download and delete. The bytes live in the file storage under generated keys; only
 * signed-in staff who may see the engagement can list or fetch them.
 */
import { Hono } from 'hono';
import { ENGAGEMENT_FILE, ENGAGEMENT_FILE_DEFAULT_SORT, ENGAGEMENT_FILE_SORTS, ENGAGEMENT_FILE_TYPE, type EngagementFile } from '@core/model/engagementFile';
import type { AppEnv, Deps } from '../context';
import { authenticate } from '../auth/guards';
import { findAccessibleEngagement } from './access';
import {
  ENGAGEMENT_FILE_FILTERS,
  addEngagementFile,
  engagementFilePage,
  findEngagementFile as findFile,
  removeEngagementFile,
  type EngagementFileRow as Row,
} from './files';
import { invalid, notFound } from '../http/errors';
import type { ListSpec } from '../http/query';
import { rowAtPath } from '../http/pathRow';
import { memberRead } from '../http/memberRead';
import { answerRows } from '../http/listAnswer';
import { sendResource, toResource } from '../http/serialize';
import { FILE_POINTER, attachmentDisposition, readUpload } from '../http/upload';
import { detectFileKind } from './fileTypes';
import { fileStorage } from '../storage/storageOfDeps';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof ENGAGEMENT_FILE_SORTS)[number], typeof ENGAGEMENT_FILE_FILTERS> = {
  type: ENGAGEMENT_FILE_TYPE,
  sorts: ENGAGEMENT_FILE_SORTS,
  defaultSort: ENGAGEMENT_FILE_DEFAULT_SORT,
  filters: ENGAGEMENT_FILE_FILTERS,
  fields: ENGAGEMENT_FILE.names,
};

export const downloadPath = (id: number | string) => `/api/${ENGAGEMENT_FILE_TYPE}/${id}/download`;

function serialize(row: Row, fields: Set<string> | null = null) {
  const file: Omit<EngagementFile, 'id'> = {
    engagementId: row.engagementId,
    created: row.created.toISOString(),
    filename: row.filename,
    mime: row.mime,
    size: row.size,
    downloadUrl: downloadPath(row.id),
  };
  return toResource(ENGAGEMENT_FILE_TYPE, row.id, file, { fields });
}

export function engagementFilesRoutes(deps: Deps) {
  const { db } = deps;
  const storage = fileStorage(deps);
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List engagement files', list: listSpec, answer: { list: ENGAGEMENT_FILE } }), (c) =>
    answerRows(c, listSpec, (q) => engagementFilePage(db, c.get('user'), q), serialize),
  );

  app.post(
    '/:id',
    describe({ summary: 'Upload a file to an engagement (id: the engagement)', body: { upload: 'file' }, answer: { resource: ENGAGEMENT_FILE, status: 201 } }),
    async (c) => {
      const user = c.get('user');
      const { row: engagement } = await rowAtPath(c, 'engagement', (id) => findAccessibleEngagement(db, id, user));
      const upload = await readUpload(c, deps.config.uploadLimitBytes);
      const detected = detectFileKind(upload.filename, upload.bytes);
      if (!detected.ok) throw invalid([{ pointer: FILE_POINTER, detail: detected.problem }]);
      const key = await storage.put(upload.bytes);
      try {
        const row = await addEngagementFile(db, {
          engagementId: engagement.id,
          filename: upload.filename,
          mime: detected.kind.mime,
          size: upload.bytes.byteLength,
          storageKey: key,
          createdBy: user.id,
        });
        // The event names the file by its own id (not only the engagement it belongs to).
        c.set('audit', {
          entity: 'engagements-o-files',
          entityId: row.id,
          action: 'upload',
          meta: { engagementId: engagement.id, mime: detected.kind.mime, size: upload.bytes.byteLength },
        });
        return sendResource(c, serialize(row), 201);
      } catch (error) {
        // No row points at the bytes (the engagement went away, say): do not keep them.
        await storage.remove(key).catch(() => undefined);
        throw error;
      }
    },
  );

  app.get(
    '/:id',
    describe({ summary: 'Read an engagement file', answer: { resource: ENGAGEMENT_FILE } }),
    memberRead(null, 'file', async (id, _q, user) => {
      const row = await findFile(db, id, user);
      return row ? { data: serialize(row) } : null;
    }),
  );

  app.get(
    '/:id/download',
    describe({
      summary: 'Download an engagement file',
      description: "The file's bytes, as an attachment, with the media type it was uploaded as.",
      answer: { media: 'application/octet-stream' },
    }),
    async (c) => {
      const { row } = await rowAtPath(c, 'file', (id) => findFile(db, id, c.get('user')));
      const bytes = await storage.get(row.storageKey);
      if (!bytes) {
        deps.log.error('file bytes missing', { fileId: row.id, key: row.storageKey });
        throw notFound('file');
      }
      c.set('audit', { entity: 'engagements-o-files', entityId: row.id, action: 'download', meta: { engagementId: row.engagementId } });
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': row.mime,
        'Content-Length': String(bytes.byteLength),
        'Content-Disposition': attachmentDisposition(row.filename),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cache-Control': 'private, no-store',
      });
    },
  );

  app.delete('/:id', describe({ summary: 'Delete an engagement file', answer: { empty: true } }), async (c) => {
    const { row } = await rowAtPath(c, 'file', (id) => findFile(db, id, c.get('user')));
    await removeEngagementFile(db, row.id);
    await storage.remove(row.storageKey).catch((error: unknown) => deps.log.warn('could not remove a file', { key: row.storageKey, error: String(error) }));
    return c.body(null, 204);
  });

  return app;
}
