/** A site location as its form holds it, and the mapping to the API's input. */
import {
  IRB_TYPE_LABELS,
  SITE_LOCATION_KIND_LABELS,
  type IrbType,
  type SiteLocation,
  type SiteLocationInput,
  type SiteLocationKind,
} from '@core/model/siteLocation';
import { fieldText, numberOrNull } from '../../components/form/fieldText';

export const SITE_LOCATION_LABELS = {
  siteId: 'Site ID',
  name: 'Name',
  description: 'Description',
  countryId: 'Country',
  countryName: 'Country',
  streetAddress: 'Street Address',
  unitNumber: 'Unit Number',
  city: 'City',
  state: 'State',
  zipCode: 'Zip Code',
  isActive: 'Active',
  isVirtual: 'Virtual',
  piName: 'PI Name',
  latitude: 'Latitude',
  longitude: 'Longitude',
  siteLocationType: 'Site Location Type',
  irbType: 'IRB Type',
  created: 'Created',
  modified: 'Modified',
} as const;

export type SiteLocationFormValues = {
  siteId: string;
  name: string;
  description: string;
  countryId: string;
  streetAddress: string;
  unitNumber: string;
  city: string;
  state: string;
  zipCode: string;
  isActive: boolean;
  isVirtual: boolean;
  piName: string;
  latitude: string;
  longitude: string;
  siteLocationType: string;
  irbType: string;
};

export const toSiteLocationFormValues = (s?: SiteLocation): SiteLocationFormValues => ({
  siteId: fieldText(s?.siteId),
  name: fieldText(s?.name),
  description: fieldText(s?.description),
  countryId: fieldText(s?.countryId),
  streetAddress: fieldText(s?.streetAddress),
  unitNumber: fieldText(s?.unitNumber),
  city: fieldText(s?.city),
  state: fieldText(s?.state),
  zipCode: fieldText(s?.zipCode),
  isActive: s?.isActive ?? true,
  isVirtual: s?.isVirtual ?? false,
  piName: fieldText(s?.piName),
  latitude: fieldText(s?.latitude),
  longitude: fieldText(s?.longitude),
  siteLocationType: fieldText(s?.siteLocationType),
  irbType: fieldText(s?.irbType),
});

export const toSiteLocationInput = (values: SiteLocationFormValues): SiteLocationInput => ({
  ...values,
  countryId: numberOrNull(values.countryId),
  latitude: numberOrNull(values.latitude),
  longitude: numberOrNull(values.longitude),
  siteLocationType: values.siteLocationType === '' ? null : (values.siteLocationType as SiteLocationKind),
  irbType: values.irbType === '' ? null : (values.irbType as IrbType),
});

export const siteKindLabel = (kind: SiteLocationKind | null) => (kind ? SITE_LOCATION_KIND_LABELS[kind] : null);
export const irbLabel = (irb: IrbType | null) => (irb ? IRB_TYPE_LABELS[irb] : null);

/** Street, unit, city, state and zip on one line. */
export const addressLine = (s: SiteLocation) =>
  [s.streetAddress && (s.unitNumber ? `${s.streetAddress}, ${s.unitNumber}` : s.streetAddress), s.city, [s.state, s.zipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ') || null;
