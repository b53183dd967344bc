/**
 * Files attached to engagements (SPEC sections 3, 7): list, upload (multipart, field `file`),
 * read, download and delete. The bytes live in the file storage under generated keys; only
 * signed-in staff who may see the engagement can list or fetch them.
 */
import { Hono } from 'hono';
import { and, count, eq, type SQL } from 'drizzle-orm';
import {
  ENGAGEMENT_FILE_DEFAULT_SORT,
  ENGAGEMENT_FILE_SORTS,
  ENGAGEMENT_FILE_TYPE,
  type EngagementFile,
} from '@core/model/engagementFile';
import type { AppEnv, AuthUser, Deps } from '../context';
import type { Db } from '../db/open';
import { engagementFiles, engagements } from '../db/schema';
import { authenticate } from '../auth/guards';
import { engagementScope, findAccessibleEngagement } from './access';
import { badRequest, invalid, notFound } from '../http/errors';
import { parseId, parseListQuery, type ListSpec } from '../http/query';
import { sendList, sendResource, toResource } from '../http/serialize';
import { FILE_POINTER, attachmentDisposition, readUpload } from '../http/upload';
import { detectFileKind } from './fileTypes';
import { fileStorage } from '../storage/ofDeps';
import { joinedPage } from '../http/list';
import { describe } from '../openapi/describe';

const listSpec: ListSpec<(typeof ENGAGEMENT_FILE_SORTS)[number], 'engagementId'> = {
  type: ENGAGEMENT_FILE_TYPE,
  sorts: ENGAGEMENT_FILE_SORTS,
  defaultSort: ENGAGEMENT_FILE_DEFAULT_SORT,
  filters: ['engagementId'],
  fields: ['engagementId', 'created', 'filename', 'mime', 'size', 'downloadUrl'],
};

const columns = {
  id: engagementFiles.id,
  engagementId: engagementFiles.engagementId,
  filename: engagementFiles.filename,
  mime: engagementFiles.mime,
  size: engagementFiles.size,
  storageKey: engagementFiles.storageKey,
  created: engagementFiles.created,
};
const sortColumns = { created: engagementFiles.created, filename: engagementFiles.filename, size: engagementFiles.size };
type Row = { id: number; engagementId: number; filename: string; mime: string; size: number; storageKey: string; created: Date };

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

const selectFiles = (db: Db) =>
  db.select(columns).from(engagementFiles).innerJoin(engagements, eq(engagements.id, engagementFiles.engagementId));

async function findFile(db: Db, id: number | null, user: AuthUser): Promise<Row | undefined> {
  if (id === null) return undefined;
  const [row] = await selectFiles(db).where(and(eq(engagementFiles.id, id), engagementScope(user)));
  return row;
}

export function engagementFilesRoutes(deps: Deps) {
  const { db } = deps;
  const storage = fileStorage(deps);
  const app = new Hono<AppEnv>();
  app.use('*', authenticate(deps));

  app.get('/', describe({ summary: 'List engagement files', list: listSpec, answer: { list: listSpec.type } }), async (c) => {
    const q = parseListQuery(new URL(c.req.url).searchParams, listSpec);
    const conditions: (SQL | undefined)[] = [engagementScope(c.get('user'))];
    if (q.filters.engagementId !== undefined) {
      const engagementId = parseId(q.filters.engagementId);
      if (engagementId === null) throw badRequest("'engagementId' must be an engagement id.", 'engagementId');
      conditions.push(eq(engagementFiles.engagementId, engagementId));
    }
    const where = and(...conditions);
    const counted = db.select({ n: count() }).from(engagementFiles).innerJoin(engagements, eq(engagements.id, engagementFiles.engagementId)).$dynamic();
    const { rows, total } = await joinedPage(selectFiles(db).$dynamic(), counted, q, { where, sorts: sortColumns, id: engagementFiles.id });
    return sendList(c, rows.map((r) => serialize(r, q.fields)), { total, page: q.page, limit: q.limit });
  });

  app.post('/:id', describe({ summary: 'Upload a file to an engagement (id: the engagement)', body: { upload: 'file' }, answer: { resource: null, status: 201 } }), async (c) => {
    const user = c.get('user');
    const engagement = await findAccessibleEngagement(db, parseId(c.req.param('id')), user);
    if (!engagement) throw notFound('engagement');
    const upload = await readUpload(c, deps.config.uploadLimitBytes);
    const detected = detectFileKind(upload.filename, upload.bytes);
    if (!detected.ok) throw invalid([{ pointer: FILE_POINTER, detail: detected.problem }]);
    const key = await storage.put(upload.bytes);
    try {
      const [row] = await db
        .insert(engagementFiles)
        .values({
          engagementId: engagement.id,
          filename: upload.filename,
          mime: detected.kind.mime,
          size: upload.bytes.byteLength,
          storageKey: key,
          createdBy: user.id,
        })
        .returning(columns);
      // The event names the file by its own id (not only the engagement it belongs to).
      c.set('audit', { entity: 'engagements-o-files', entityId: (row as Row).id, action: 'upload', meta: { engagementId: engagement.id, mime: detected.kind.mime, size: upload.bytes.byteLength } });
      return sendResource(c, serialize(row as Row), 201);
    } catch (error) {
      // No row points at the bytes (the engagement went away, say): do not keep them.
      await storage.remove(key).catch(() => undefined);
      throw error;
    }
  });

  app.get('/:id', describe({ summary: 'Read an engagement file' }), async (c) => {
    const row = await findFile(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('file');
    return sendResource(c, serialize(row));
  });

  app.get('/:id/download', describe({ summary: 'Download an engagement file', description: "The file's bytes, as an attachment, with the media type it was uploaded as.", answer: { media: 'application/octet-stream' } }), async (c) => {
    const row = await findFile(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('file');
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
  });

  app.delete('/:id', describe({ summary: 'Delete an engagement file', answer: { empty: true } }), async (c) => {
    const row = await findFile(db, parseId(c.req.param('id')), c.get('user'));
    if (!row) throw notFound('file');
    await db.delete(engagementFiles).where(eq(engagementFiles.id, row.id));
    await storage.remove(row.storageKey).catch((error: unknown) => deps.log.warn('could not remove a file', { key: row.storageKey, error: String(error) }));
    return c.body(null, 204);
  });

  return app;
}
