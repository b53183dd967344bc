import * as v from 'valibot';
import { resourceAnswer, type Answered } from './answers';

export const COUNTRY_TYPE = 'countries';

/** A country as the API answers it: the one description of its attributes. */
export const COUNTRY = resourceAnswer(COUNTRY_TYPE, v.object({ name: v.string(), isoCode: v.pipe(v.string(), v.description('ISO 3166-1 alpha-2.')) }));

export type Country = Answered<typeof COUNTRY>;

export const COUNTRY_SORTS = ['name', 'isoCode'] as const;
