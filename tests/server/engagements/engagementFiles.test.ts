import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq } from 'drizzle-orm';
import { auditEvents, engagementFiles } from '../../../server/db/schema';
import { createHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;
let dataDir: string;
let engagementId: string;
let otherEngagementId: string;
let mineSponsorId: string;

const fileCount = async () => (await h.db.select({ n: count() }).from(engagementFiles))[0]?.n;
const storedFiles = () =>
  fs.existsSync(path.join(dataDir, 'files'))
    ? fs.readdirSync(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile())
    : [];

function upload(target: string, content: Blob | null, filename: string, token = admin) {
  const form = new FormData();
  if (content) form.set('file', content, filename);
  return h.app.request(`/api/engagements-o-files/${target}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
}

async function sponsorWithEngagement(identification: string) {
  const sponsor = await json(
    await h.request('POST', '/api/sponsors', { token: admin, body: { data: { type: 'sponsors', attributes: { name: identification, identification } } } }),
  );
  const engagement = await json(
    await h.request('POST', '/api/engagements', {
      token: admin,
      body: {
        data: {
          type: 'engagements',
          attributes: { name: `Study ${identification}`, identification: `${identification}-E`, sponsorId: Number(sponsor.data.id) },
        },
      },
    }),
  );
  return { sponsorId: sponsor.data.id as string, engagementId: engagement.data.id as string };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-test-'));
  h = await createHarness({ DATA_DIR: dataDir, UPLOAD_LIMIT_MB: '1' });
  admin = await h.token();
  ({ engagementId, sponsorId: mineSponsorId } = await sponsorWithEngagement('FILES'));
  ({ engagementId: otherEngagementId } = await sponsorWithEngagement('OTHERFILES'));
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('engagement files', () => {
  it('uploads under a generated name in DATA_DIR/files, lists, downloads as an attachment and deletes', async () => {
    const content = 'protocol text ✓';
    const res = await upload(engagementId, new Blob([content], { type: 'text/plain' }), '../../etc/Protocol "v2" ü.txt');
    expect(res.status).toBe(201);
    const doc = await json(res);
    const id = doc.data.id;
    expect(doc.data.type).toBe('engagements-o-files');
    // The trail's event names the file by its own id.
    const [event] = await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'upload')).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      entity: 'engagements-o-files',
      entityId: String(id),
      meta: expect.objectContaining({ engagementId: Number(engagementId), mime: 'text/plain' }),
    });
    expect(doc.data.attributes).toMatchObject({
      engagementId: Number(engagementId),
      filename: 'Protocol v2 ü.txt',
      mime: 'text/plain',
      size: Buffer.byteLength(content),
      downloadUrl: `/api/engagements-o-files/${id}/download`,
    });
    expect(Date.parse(doc.data.attributes.created)).not.toBeNaN();
    const stored = storedFiles();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.name).toMatch(/^[0-9a-f-]{36}$/);

    const list = await json(await h.request('GET', `/api/engagements-o-files?engagementId=${engagementId}`, { token: admin }));
    expect(list.meta.total).toBe(1);
    expect(list.data[0].id).toBe(id);

    const download = await h.request('GET', doc.data.attributes.downloadUrl, { token: admin });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="Protocol v2 _.txt"; filename*=UTF-8''Protocol%20v2%20%C3%BC.txt`);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await download.text()).toBe(content);

    expect((await h.request('DELETE', `/api/engagements-o-files/${id}`, { token: admin })).status).toBe(204);
    expect((await h.request('GET', doc.data.attributes.downloadUrl, { token: admin })).status).toBe(404);
    expect(storedFiles()).toHaveLength(0);
  });

  it('needs a signed-in member of staff who may see the engagement', async () => {
    const doc = await json(await upload(otherEngagementId, new Blob(['%PDF-1.4 secret']), 'secret.pdf'));
    const url = doc.data.attributes.downloadUrl;
    expect((await h.request('GET', url)).status).toBe(401);
    // No token in the URL is accepted.
    expect((await h.request('GET', `${url}?token=${admin}`)).status).toBe(401);
    await h.createUser({ username: 'file-user', password: 'file-password', roles: ['User'], sponsorIds: [Number(mineSponsorId)] });
    const user = await h.token('file-user', 'file-password');
    expect((await h.request('GET', url, { token: user })).status).toBe(404);
    expect((await h.request('GET', `/api/engagements-o-files/${doc.data.id}`, { token: user })).status).toBe(404);
    expect((await h.request('DELETE', `/api/engagements-o-files/${doc.data.id}`, { token: user })).status).toBe(404);
    expect((await json(await h.request('GET', '/api/engagements-o-files', { token: user }))).meta.total).toBe(0);
    expect((await upload(otherEngagementId, new Blob(['x']), 'x.txt', user)).status).toBe(404);
    // Their own engagement works.
    expect((await upload(engagementId, new Blob(['mine']), 'mine.txt', user)).status).toBe(201);
  });

  it('refuses a missing, empty or too large file and a non-multipart body, storing nothing', async () => {
    const before = await fileCount();
    const storedBefore = storedFiles().length;
    const none = await upload(engagementId, null, 'x');
    expect(none.status).toBe(422);
    expect((await json(none)).errors[0]).toMatchObject({ source: { pointer: '/file' }, detail: 'Choose a file to upload.' });
    const empty = await upload(engagementId, new Blob([]), 'empty.txt');
    expect((await json(empty)).errors[0].detail).toBe('The file is empty.');
    const big = await upload(engagementId, new Blob([new Uint8Array(1024 * 1024 + 1)]), 'big.bin');
    expect(big.status).toBe(413);
    expect((await json(big)).errors[0].detail).toBe('The file is larger than the upload limit of 1 MB.');
    const jsonBody = await h.request('POST', `/api/engagements-o-files/${engagementId}`, { token: admin, body: { data: {} } });
    expect(jsonBody.status).toBe(415);
    expect((await upload('999999', new Blob(['x']), 'x.txt')).status).toBe(404);
    expect(await fileCount()).toBe(before);
    expect(storedFiles()).toHaveLength(storedBefore);
  });

  it('removes the stored bytes when the engagement is deleted', async () => {
    const { engagementId: doomed } = await sponsorWithEngagement('DOOMED');
    await upload(doomed, new Blob(['bye']), 'bye.txt');
    const storedBefore = storedFiles().length;
    expect((await h.request('DELETE', `/api/engagements/${doomed}`, { token: admin })).status).toBe(204);
    expect(storedFiles()).toHaveLength(storedBefore - 1);
  });

  it('answers 400 for bad list parameters', async () => {
    for (const [query, parameter] of [
      ['sort=storageKey', 'sort'],
      ['engagementId=abc', 'engagementId'],
    ]) {
      const res = await h.request('GET', `/api/engagements-o-files?${query}`, { token: admin });
      expect(res.status).toBe(400);
      expect((await json(res)).errors[0].source.parameter).toBe(parameter);
    }
  });
});

describe('file types are checked by content and extension', () => {
  it('stores the detected type, not the declared one, and refuses what it cannot accept, writing nothing', async () => {
    const good = await json(await upload(engagementId, new Blob(['%PDF-1.7 real enough'], { type: 'text/html' }), 'report.pdf'));
    expect(good.data.attributes.mime).toBe('application/pdf');
    const png = await json(await upload(engagementId, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])]), 'logo.PNG'));
    expect(png.data.attributes.mime).toBe('image/png');

    const before = [await fileCount(), storedFiles().length];
    const cases: [Blob, string, RegExp][] = [
      [new Blob(['<html><script>alert(1)</script>']), 'brochure.pdf', /not that of a PDF file/],
      [new Blob([new Uint8Array([0x4d, 0x5a, 0x90, 0x00])]), 'setup.exe', /\.exe are not accepted/],
      [new Blob(['<svg onload=alert(1)>']), 'image.svg', /\.svg are not accepted/],
      [new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2])]), 'notes.txt', /not that of a text file/],
      [new Blob(['no extension']), 'README', /\(none\) are not accepted/],
    ];
    for (const [content, name, message] of cases) {
      const res = await upload(engagementId, content, name);
      expect(res.status, name).toBe(422);
      const doc = await json(res);
      expect(doc.errors[0].source.pointer).toBe('/file');
      expect(doc.errors[0].detail).toMatch(message);
    }
    expect([await fileCount(), storedFiles().length]).toEqual(before);
  });
});

describe('UPLOAD_LIMIT_MB', () => {
  it('defaults to 25 MB and refuses values that are not whole megabytes from 1 to 1024', async () => {
    const { loadConfig } = await import('../../../server/config');
    expect(loadConfig({}).uploadLimitBytes).toBe(25 * 1024 * 1024);
    expect(loadConfig({ UPLOAD_LIMIT_MB: '100' }).uploadLimitBytes).toBe(100 * 1024 * 1024);
    expect(() => loadConfig({ UPLOAD_LIMIT_MB: 'lots' })).toThrow(/^UPLOAD_LIMIT_MB must be a whole number/);
    expect(() => loadConfig({ UPLOAD_LIMIT_MB: '0' })).toThrow(/^UPLOAD_LIMIT_MB must be between 1 and 1024/);
  });
});
