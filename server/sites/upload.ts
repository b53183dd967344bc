/**
 * The site list upload (POST /api/engagements-site-locations/upload/{engagementId}): a CSV or
 * XLSX file with one site per row. Every row is checked first; a file with any bad row writes
 * nothing and answers each bad row's number and problem. A good file creates the site
 * locations whose site_id is new and links every row's site to the engagement, in one
 * transaction. The columns are documented in docs/sites.md.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { parseCsv } from '@core/csv';
import { IRB_TYPES, SITE_LOCATION_KINDS, SiteLocationInput, SiteLocationPatch } from '@core/model/siteLocation';
import { MAX_RADIUS } from '@core/model/engagement';
import type { SiteUploadResult } from '@core/model/engagementSiteLocation';
import type { Db } from '../db/open';
import { countries, engagementSiteLocations, siteLocations } from '../db/schema';

/** A problem with the file; `row` is the spreadsheet's row number (the header is row 1). */
export interface UploadIssue {
  row: number;
  column?: string;
  detail: string;
}

export class UploadRejected extends Error {
  constructor(readonly issues: UploadIssue[]) {
    super(`${issues.length} problem(s) in the uploaded file`);
  }
}

export const MAX_UPLOAD_ROWS = 50_000;
/** At most this many problems are listed; the last entry says how many more there were. */
export const MAX_LISTED_ISSUES = 200;

/** Column headers: the canonical name, and spellings accepted for it. */
export const UPLOAD_COLUMNS = {
  site_id: ['site_id', 'siteid', 'site'],
  name: ['name', 'site_name', 'sitename'],
  description: ['description'],
  street_address: ['street_address', 'streetaddress', 'address', 'street'],
  unit_number: ['unit_number', 'unitnumber', 'unit', 'suite'],
  city: ['city'],
  state: ['state', 'province', 'region'],
  zip_code: ['zip_code', 'zipcode', 'zip', 'postal_code', 'postalcode'],
  country: ['country', 'country_code', 'countrycode', 'country_iso_code'],
  latitude: ['latitude', 'lat'],
  longitude: ['longitude', 'lng', 'lon', 'long'],
  pi_name: ['pi_name', 'piname', 'pi', 'principal_investigator'],
  is_virtual: ['is_virtual', 'isvirtual', 'virtual'],
  is_active: ['is_active', 'isactive', 'active'],
  site_location_type: ['site_location_type', 'sitelocationtype', 'site_type', 'type'],
  irb_type: ['irb_type', 'irbtype', 'irb'],
  radius: ['radius'],
  rms_site_identification: ['rms_site_identification', 'rmssiteidentification', 'rms_site_id', 'rms_id'],
} as const;
export type UploadColumn = keyof typeof UPLOAD_COLUMNS;

const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
const HEADER_INDEX = new Map<string, UploadColumn>();
for (const [column, names] of Object.entries(UPLOAD_COLUMNS) as [UploadColumn, readonly string[]][]) {
  for (const n of names) HEADER_INDEX.set(n, column);
}

// ---------------------------------------------------------------------------------------------
// Reading the file into rows of text.

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

/** The file's rows as text, by its name and content: .xlsx (a zip) or CSV text. */
export async function readRows(filename: string, bytes: Uint8Array): Promise<string[][]> {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (ext === 'xls') throw new UploadRejected([{ row: 0, detail: 'Old .xls files are not supported. Save the sheet as .xlsx or .csv.' }]);
  if (ext === 'xlsx' || isZip(bytes)) {
    // Imported at the first spreadsheet: loaded, the reader holds about 17 MB of the process's memory.
    const { readSheet } = await import('read-excel-file/node');
    try {
      const sheet = await readSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return sheet.map((row) => row.map(cellText));
    } catch {
      throw new UploadRejected([{ row: 0, detail: 'The file could not be read as an .xlsx spreadsheet.' }]);
    }
  }
  if (!['csv', 'txt', ''].includes(ext) && bytes.includes(0)) {
    throw new UploadRejected([{ row: 0, detail: 'Upload a .csv or .xlsx file.' }]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Spreadsheet programs on Windows often save CSV as Windows-1252.
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  if (text.includes('\u0000')) throw new UploadRejected([{ row: 0, detail: 'Upload a .csv or .xlsx file.' }]);
  return parseCsv(text);
}

// ---------------------------------------------------------------------------------------------
// Checking rows.

export interface SiteRow {
  /** Spreadsheet row number. */
  row: number;
  siteId: string;
  /** The site location to create when siteId is new. */
  site: v.InferOutput<typeof SiteLocationInput> | null;
  radius: number | null;
  rmsSiteIdentification: string | null;
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, yes: true, y: true, '1': true, false: false, no: false, n: false, '0': false };

type Cell = Partial<Record<UploadColumn, string>>;

function toSiteValues(cells: Cell, countryIds: Map<string, number>, issues: UploadIssue[], row: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const text = (column: UploadColumn, key: string) => {
    const value = cells[column];
    if (value !== undefined && value !== '') out[key] = value;
  };
  text('site_id', 'siteId');
  text('name', 'name');
  text('description', 'description');
  text('street_address', 'streetAddress');
  text('unit_number', 'unitNumber');
  text('city', 'city');
  text('state', 'state');
  text('zip_code', 'zipCode');
  text('pi_name', 'piName');
  for (const [column, key] of [
    ['latitude', 'latitude'],
    ['longitude', 'longitude'],
  ] as const) {
    const value = cells[column];
    if (value === undefined || value === '') continue;
    const n = Number(value.replace(',', '.'));
    if (value.trim() === '' || Number.isNaN(n)) issues.push({ row, column, detail: 'Must be a number.' });
    else out[key] = n;
  }
  for (const [column, key] of [
    ['is_virtual', 'isVirtual'],
    ['is_active', 'isActive'],
  ] as const) {
    const value = cells[column]?.trim().toLowerCase();
    if (value === undefined || value === '') continue;
    const flag = BOOLEAN_TEXT[value];
    if (flag === undefined) issues.push({ row, column, detail: 'Must be yes or no (or true/false, 1/0).' });
    else out[key] = flag;
  }
  const choice = (column: UploadColumn, key: string, values: readonly string[]) => {
    const value = cells[column];
    if (value === undefined || value === '') return;
    const normal = value
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    if (values.includes(normal)) out[key] = normal;
    else issues.push({ row, column, detail: `Choose one of: ${values.join(', ')}.` });
  };
  choice('site_location_type', 'siteLocationType', SITE_LOCATION_KINDS);
  choice('irb_type', 'irbType', IRB_TYPES);
  const country = cells.country?.trim();
  if (country) {
    const id = countryIds.get(country.toLowerCase());
    if (id === undefined) issues.push({ row, column: 'country', detail: `Unknown country '${country}'. Use its ISO code (US) or name.` });
    else out.countryId = id;
  }
  return out;
}

const ATTRIBUTE_COLUMNS: Record<string, UploadColumn> = {
  siteId: 'site_id',
  name: 'name',
  description: 'description',
  streetAddress: 'street_address',
  unitNumber: 'unit_number',
  city: 'city',
  state: 'state',
  zipCode: 'zip_code',
  piName: 'pi_name',
  latitude: 'latitude',
  longitude: 'longitude',
  countryId: 'country',
};

/** Checks every row; throws UploadRejected listing all problems, else returns the rows. */
export async function checkRows(db: Db, table: string[][]): Promise<{ rows: SiteRow[]; existing: Map<string, number> }> {
  const [header = [], ...body] = table;
  const issues: UploadIssue[] = [];
  const columns: (UploadColumn | null)[] = header.map((h) => {
    const name = normalizeHeader(h);
    if (name === '') return null;
    const column = HEADER_INDEX.get(name);
    if (!column) {
      issues.push({ row: 1, column: h, detail: `Unknown column '${h.trim()}'. Columns: ${Object.keys(UPLOAD_COLUMNS).join(', ')}.` });
      return null;
    }
    return column;
  });
  for (const required of ['site_id', 'name'] as const) {
    if (!columns.includes(required)) issues.push({ row: 1, column: required, detail: `The header must have a '${required}' column.` });
  }
  const seenColumns = new Set<UploadColumn>();
  for (const c of columns) {
    if (c && seenColumns.has(c)) issues.push({ row: 1, column: c, detail: `The column '${c}' appears twice.` });
    if (c) seenColumns.add(c);
  }
  if (issues.length) throw new UploadRejected(issues);

  const records: { row: number; cells: Cell }[] = [];
  body.forEach((values, index) => {
    if (values.every((value) => value.trim() === '')) return;
    const cells: Cell = {};
    columns.forEach((c, i) => {
      if (c) cells[c] = (values[i] ?? '').trim();
    });
    records.push({ row: index + 2, cells });
  });
  if (records.length === 0) throw new UploadRejected([{ row: 0, detail: 'The file has no sites below its header.' }]);
  if (records.length > MAX_UPLOAD_ROWS) {
    throw new UploadRejected([{ row: 0, detail: `The file has ${records.length} rows; upload at most ${MAX_UPLOAD_ROWS} at a time.` }]);
  }

  const countryIds = new Map<string, number>();
  for (const c of await db.select({ id: countries.id, name: countries.name, isoCode: countries.isoCode }).from(countries)) {
    countryIds.set(c.isoCode.toLowerCase(), c.id);
    countryIds.set(c.name.toLowerCase(), c.id);
  }
  const siteIds = [...new Set(records.map((r) => r.cells.site_id).filter((s): s is string => !!s))];
  const existing = new Map<string, number>();
  for (let i = 0; i < siteIds.length; i += 5000) {
    const chunk = siteIds.slice(i, i + 5000);
    for (const s of await db.select({ id: siteLocations.id, siteId: siteLocations.siteId }).from(siteLocations).where(inArray(siteLocations.siteId, chunk))) {
      if (s.siteId) existing.set(s.siteId, s.id);
    }
  }

  const firstRowOf = new Map<string, number>();
  const rows: SiteRow[] = [];
  for (const { row, cells } of records) {
    const before = issues.length;
    const values = toSiteValues(cells, countryIds, issues, row);
    const siteId = cells.site_id ?? '';
    if (siteId === '') issues.push({ row, column: 'site_id', detail: 'This field is required.' });
    else if (firstRowOf.has(siteId)) issues.push({ row, column: 'site_id', detail: `Site id '${siteId}' is already on row ${firstRowOf.get(siteId)}.` });
    else firstRowOf.set(siteId, row);
    // A new site is created from the row; a known one is only linked (its columns are still checked).
    const known = siteId !== '' && existing.has(siteId);
    const schema = known ? SiteLocationPatch : SiteLocationInput;
    if (!known) values.name ??= '';
    const parsed = v.safeParse(schema, values);
    if (!parsed.success) {
      for (const issue of parsed.issues) {
        const key = String(issue.path?.[0]?.key ?? '');
        issues.push({ row, column: ATTRIBUTE_COLUMNS[key] ?? key, detail: issue.message });
      }
    }
    let radius: number | null = null;
    const radiusText = cells.radius;
    if (radiusText) {
      const n = Number(radiusText);
      if (!Number.isInteger(n) || n < 1 || n > MAX_RADIUS) issues.push({ row, column: 'radius', detail: `Must be a whole number from 1 to ${MAX_RADIUS}.` });
      else radius = n;
    }
    const rms = cells.rms_site_identification || null;
    if (rms && rms.length > 255) issues.push({ row, column: 'rms_site_identification', detail: 'Maximum 255 characters.' });
    if (issues.length === before && parsed.success) {
      rows.push({
        row,
        siteId,
        site: existing.has(siteId) ? null : (parsed.output as v.InferOutput<typeof SiteLocationInput>),
        radius,
        rmsSiteIdentification: rms,
      });
    }
  }
  if (issues.length) throw new UploadRejected(issues);
  return { rows, existing };
}

// ---------------------------------------------------------------------------------------------
// Writing.

const CHUNK = 1000;

/**
 * Creates the new sites and links every row's site, in one transaction. Answers the counts and,
 * for the audit trail, the ids of the sites created and of the sites whose link was made or changed.
 */
export async function importSites(
  db: Db,
  engagementId: number,
  rows: SiteRow[],
  existing: Map<string, number>,
): Promise<{ result: SiteUploadResult; createdSiteLocationIds: number[]; linkedSiteLocationIds: number[] }> {
  return db.transaction(async (tx) => {
    const ids = new Map(existing);
    const createdSiteLocationIds: number[] = [];
    const creating = rows.filter((r) => r.site !== null);
    for (let i = 0; i < creating.length; i += CHUNK) {
      const chunk = creating.slice(i, i + CHUNK);
      const created = await tx
        .insert(siteLocations)
        .values(chunk.map((r) => ({ ...r.site!, siteId: r.siteId })))
        .returning({ id: siteLocations.id, siteId: siteLocations.siteId });
      for (const c of created) {
        createdSiteLocationIds.push(c.id);
        if (c.siteId) ids.set(c.siteId, c.id);
      }
    }
    const linkedBefore = new Set<number>();
    const siteIdsToLink = rows.map((r) => ids.get(r.siteId) as number);
    for (let i = 0; i < siteIdsToLink.length; i += 5000) {
      const chunk = siteIdsToLink.slice(i, i + 5000);
      const found = await tx
        .select({ siteLocationId: engagementSiteLocations.siteLocationId })
        .from(engagementSiteLocations)
        .where(and(eq(engagementSiteLocations.engagementId, engagementId), inArray(engagementSiteLocations.siteLocationId, chunk)));
      for (const f of found) linkedBefore.add(f.siteLocationId);
    }
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      await tx
        .insert(engagementSiteLocations)
        .values(
          chunk.map((r) => ({
            engagementId,
            siteLocationId: ids.get(r.siteId) as number,
            radius: r.radius,
            rmsSiteIdentification: r.rmsSiteIdentification,
            isActive: true,
          })),
        )
        .onConflictDoUpdate({
          target: [engagementSiteLocations.engagementId, engagementSiteLocations.siteLocationId],
          set: {
            // Blank cells keep what the link had; an uploaded link is active again.
            radius: sql`coalesce(excluded.radius, ${engagementSiteLocations.radius})`,
            rmsSiteIdentification: sql`coalesce(excluded.rms_site_identification, ${engagementSiteLocations.rmsSiteIdentification})`,
            isActive: true,
            modified: sql`now()`,
          },
        });
    }
    return {
      result: {
        rows: rows.length,
        createdSiteLocations: creating.length,
        linkedSiteLocations: rows.length - linkedBefore.size,
        updatedLinks: linkedBefore.size,
      },
      createdSiteLocationIds,
      linkedSiteLocationIds: siteIdsToLink,
    };
  });
}
