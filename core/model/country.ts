export const COUNTRY_TYPE = 'countries';

export interface Country {
  id: string;
  name: string;
  isoCode: string;
}

export const COUNTRY_SORTS = ['name', 'isoCode'] as const;
