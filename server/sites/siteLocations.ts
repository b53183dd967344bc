/**
 * A site location as every route reads it: its columns with its country's name and code, and
 * the document attributes they make (the site locations' own routes and the engagements' links
 * that include their sites).
 */
import type { SiteLocation } from '@core/model/siteLocation';
import { countries, siteLocations } from '../db/schema';

export const siteLocationColumns = {
  id: siteLocations.id,
  siteId: siteLocations.siteId,
  name: siteLocations.name,
  description: siteLocations.description,
  countryId: siteLocations.countryId,
  countryName: countries.name,
  countryIsoCode: countries.isoCode,
  streetAddress: siteLocations.streetAddress,
  unitNumber: siteLocations.unitNumber,
  city: siteLocations.city,
  state: siteLocations.state,
  zipCode: siteLocations.zipCode,
  isActive: siteLocations.isActive,
  isVirtual: siteLocations.isVirtual,
  piName: siteLocations.piName,
  latitude: siteLocations.latitude,
  longitude: siteLocations.longitude,
  siteLocationType: siteLocations.siteLocationType,
  irbType: siteLocations.irbType,
  created: siteLocations.created,
  modified: siteLocations.modified,
};

export type SiteLocationRow = Omit<SiteLocation, 'id' | 'created' | 'modified'> & { id: number; created: Date; modified: Date };

export function toSiteLocation(row: SiteLocationRow): SiteLocation {
  return { ...row, id: String(row.id), created: row.created.toISOString(), modified: row.modified.toISOString() };
}
