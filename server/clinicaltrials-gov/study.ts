/**
 * A ClinicalTrials.gov API v2 study record read for its sites:
 * `protocolSection.identificationModule.nctId`, `statusModule.overallStatus` and
 * `contactsLocationsModule.locations[]` (facility, status, city, state, zip, country,
 * geoPoint.lat/lon, contacts[] with the PRINCIPAL_INVESTIGATOR as PI). Locations have no id of
 * their own: a site's stable key is the NCT id with its facility and ZIP (its city when it has no
 * ZIP). A location's status RECRUITING or NOT_YET_RECRUITING makes the site active, any other
 * closes it; a location without a status takes the study's overall status. Problems name the
 * location and field, and nothing of a record with a problem is used.
 */
import { createHash } from 'node:crypto';

export const NCT_ID = /^NCT\d{8}$/;
/** An NCT number as staff may type it: any case, spaces around (it is kept as NCT_ID says). */
export const NCT_ID_AS_TYPED = /^\s*[Nn][Cc][Tt]\d{8}\s*$/;
export const OPEN_STATUSES = ['RECRUITING', 'NOT_YET_RECRUITING'] as const;

export interface StudyIssue {
  /** JSON pointer into the study record. */
  path: string;
  detail: string;
}

export class StudyRefused extends Error {
  constructor(readonly issues: StudyIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.detail}`).join('; '));
  }
}

export interface StudySite {
  /** Its place in the record's locations (from 0), for problems found later. */
  index: number;
  /** The stable key, kept as the site location's site id. */
  siteId: string;
  name: string;
  status: string | null;
  isActive: boolean;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  piName: string | null;
}

export interface StudySites {
  nctId: string;
  title: string | null;
  overallStatus: string | null;
  sites: StudySite[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().replace(/\s+/g, ' ') : null);

/** The stable key of a study's location. */
export function siteKey(nctId: string, facility: string, zip: string | null, city: string | null): string {
  const place = (zip ?? city ?? '').toLowerCase();
  const hash = createHash('sha256').update(`${facility.toLowerCase()}|${place}`, 'utf8').digest('hex').slice(0, 12);
  return `${nctId}-${hash}`;
}

/** The record's sites, or StudyRefused naming every problem. */
export function readStudy(record: unknown): StudySites {
  const issues: StudyIssue[] = [];
  const protocol = isObject(record) ? record.protocolSection : undefined;
  if (!isObject(protocol)) throw new StudyRefused([{ path: '/protocolSection', detail: 'Missing: this is not a ClinicalTrials.gov study record.' }]);
  const identification = protocol.identificationModule;
  const nctId = isObject(identification) ? text(identification.nctId) : null;
  if (!nctId || !NCT_ID.test(nctId)) issues.push({ path: '/protocolSection/identificationModule/nctId', detail: 'Must be an NCT number such as NCT06388018.' });
  const statusModule = protocol.statusModule;
  const overallStatus = isObject(statusModule) ? text(statusModule.overallStatus) : null;
  const module = protocol.contactsLocationsModule;
  const locations = isObject(module) ? module.locations : undefined;
  if (!Array.isArray(locations)) {
    issues.push({ path: '/protocolSection/contactsLocationsModule/locations', detail: 'Missing: the study lists no locations.' });
    throw new StudyRefused(issues);
  }
  const sites: StudySite[] = [];
  const seen = new Map<string, number>();
  locations.forEach((raw, i) => {
    const at = `/protocolSection/contactsLocationsModule/locations/${i}`;
    if (!isObject(raw)) {
      issues.push({ path: at, detail: `Location ${i + 1} is not an object.` });
      return;
    }
    const facility = text(raw.facility);
    const named = `Location ${i + 1}${facility ? ` (${facility})` : ''}`;
    if (!facility) issues.push({ path: `${at}/facility`, detail: `${named}: facility is missing.` });
    for (const field of ['status', 'city', 'state', 'zip', 'country'] as const) {
      if (raw[field] !== undefined && raw[field] !== null && typeof raw[field] !== 'string')
        issues.push({ path: `${at}/${field}`, detail: `${named}: ${field} must be text.` });
    }
    const city = text(raw.city);
    const zip = text(raw.zip);
    if (!city && !zip) issues.push({ path: `${at}/city`, detail: `${named}: neither city nor zip is given.` });
    let latitude: number | null = null;
    let longitude: number | null = null;
    if (raw.geoPoint !== undefined && raw.geoPoint !== null) {
      const geo = isObject(raw.geoPoint) ? raw.geoPoint : {};
      const { lat, lon } = geo;
      if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90)
        issues.push({ path: `${at}/geoPoint/lat`, detail: `${named}: geoPoint.lat must be a number from -90 to 90.` });
      else latitude = lat;
      if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180)
        issues.push({ path: `${at}/geoPoint/lon`, detail: `${named}: geoPoint.lon must be a number from -180 to 180.` });
      else longitude = lon;
    }
    const contacts = Array.isArray(raw.contacts) ? raw.contacts : [];
    const pi = contacts.find((c) => isObject(c) && c.role === 'PRINCIPAL_INVESTIGATOR');
    if (!facility || !nctId || (!city && !zip)) return;
    const siteId = siteKey(nctId, facility, zip, city);
    const before = seen.get(siteId);
    if (before !== undefined) {
      issues.push({ path: at, detail: `${named}: the same facility and place as location ${before + 1}.` });
      return;
    }
    seen.set(siteId, i);
    const status = text(raw.status);
    const effective = status ?? overallStatus;
    sites.push({
      index: i,
      siteId,
      name: facility,
      status,
      isActive: effective !== null && (OPEN_STATUSES as readonly string[]).includes(effective),
      city,
      state: text(raw.state),
      zipCode: zip,
      country: text(raw.country),
      latitude,
      longitude,
      piName: isObject(pi) ? text(pi.name) : null,
    });
  });
  if (issues.length > 0) throw new StudyRefused(issues);
  return { nctId: nctId!, title: isObject(identification) ? text(identification.briefTitle) : null, overallStatus, sites };
}
