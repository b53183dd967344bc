/** What the About screen shows (GET /api/about) and the licences of the product's dependencies (GET /api/about/licences). */
import * as v from 'valibot';
import { instant, nullableText, resourceAnswer, type Answered } from './answers';

export const ABOUT_TYPE = 'about';
export const LICENCE_TYPE = 'licences';

/** Where the API is described: the reference for people and the OpenAPI document it reads. */
export const API_REFERENCE_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

/** The product and where it runs (id: the product's name). */
export const ABOUT = resourceAnswer(
  ABOUT_TYPE,
  v.object({
    productName: v.string(),
    version: v.string(),
    description: v.string(),
    buildTime: v.pipe(v.nullable(instant()), v.description('When the admin bundle this server serves was built; null when it serves none (development).')),
    databaseKind: v.picklist(['PGlite', 'PostgreSQL']),
    databaseVersion: v.pipe(v.string(), v.description('As the database names itself, e.g. "PostgreSQL 18.6 (PGlite 0.5.16)".')),
  }),
);
export type About = Answered<typeof ABOUT>;

/** One dependency the product ships with, by the licence its package declares. */
export const LICENCE = resourceAnswer(LICENCE_TYPE, v.object({ name: v.string(), version: v.string(), licence: v.string(), homepage: nullableText() }));
export type DependencyLicence = Answered<typeof LICENCE>;
