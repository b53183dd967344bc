import * as v from 'valibot';
import { flag, idNumber, optionalText, requiredText } from './fields';
import { optionalChoice, optionalNumber } from './scalars';
import { instant, nullableText, recordId, resourceAnswer, type Answered } from './answers';

export const SITE_LOCATION_TYPE = 'site-locations';

export const SITE_LOCATION_KINDS = ['academic_hospital', 'clinical_research_center', 'neurology_disease_center'] as const;
export type SiteLocationKind = (typeof SITE_LOCATION_KINDS)[number];
export const SITE_LOCATION_KIND_LABELS: Record<SiteLocationKind, string> = {
  academic_hospital: 'Academic Hospital',
  clinical_research_center: 'Clinical Research Center',
  neurology_disease_center: 'Neurology Disease Center',
};

export const IRB_TYPES = ['local', 'single'] as const;
export type IrbType = (typeof IRB_TYPES)[number];
export const IRB_TYPE_LABELS: Record<IrbType, string> = { local: 'Local', single: 'Single' };

/**
 * What staff may write on a site location. The address (SPEC's `location`) is kept as flat
 * attributes: streetAddress, unitNumber, city, state, zipCode.
 */
export const SiteLocationInput = v.strictObject({
  siteId: optionalText(64),
  name: requiredText(255),
  description: optionalText(5000),
  countryId: v.optional(v.nullable(idNumber())),
  streetAddress: optionalText(255),
  unitNumber: optionalText(64),
  city: optionalText(128),
  state: optionalText(128),
  zipCode: optionalText(32),
  isActive: v.optional(flag(), true),
  isVirtual: v.optional(flag(), false),
  piName: optionalText(255),
  latitude: optionalNumber(-90, 90),
  longitude: optionalNumber(-180, 180),
  siteLocationType: optionalChoice(SITE_LOCATION_KINDS),
  irbType: optionalChoice(IRB_TYPES),
});

export const SiteLocationPatch = v.partial(SiteLocationInput);

export type SiteLocationInput = v.InferInput<typeof SiteLocationInput>;

/** A site location as the API answers it: the one description of its attributes. */
export const SITE_LOCATION = resourceAnswer(
  SITE_LOCATION_TYPE,
  v.object({
    siteId: nullableText(),
    name: v.string(),
    description: nullableText(),
    countryId: v.nullable(recordId()),
    countryName: nullableText(),
    countryIsoCode: nullableText(),
    streetAddress: nullableText(),
    unitNumber: nullableText(),
    city: nullableText(),
    state: nullableText(),
    zipCode: nullableText(),
    isActive: v.boolean(),
    isVirtual: v.boolean(),
    piName: nullableText(),
    latitude: v.nullable(v.number()),
    longitude: v.nullable(v.number()),
    siteLocationType: v.nullable(v.picklist(SITE_LOCATION_KINDS)),
    irbType: v.nullable(v.picklist(IRB_TYPES)),
    created: instant(),
    modified: instant(),
  }),
);

/** A site location as the API returns it. */
export type SiteLocation = Answered<typeof SITE_LOCATION>;

export const SITE_ID_TAKEN = 'This site id is already in use.';

/** SPEC section 9: default `-isActive,name`. */
export const SITE_LOCATION_SORTS = ['name', 'siteId', 'city', 'state', 'zipCode', 'piName', 'countryName', 'isActive', 'created', 'modified'] as const;
export const SITE_LOCATION_DEFAULT_SORT = '-isActive,name';
