/** What the About screen shows (GET /api/about) and the licences of the product's dependencies (GET /api/about/licences). */
export const ABOUT_TYPE = 'about';
export const LICENCE_TYPE = 'licences';

/** Where the API is described: the reference for people and the OpenAPI document it reads. */
export const API_REFERENCE_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

export interface About {
  id: string;
  productName: string;
  version: string;
  description: string;
  /** When the admin bundle this server serves was built; null when it serves none (development). */
  buildTime: string | null;
  databaseKind: 'PGlite' | 'PostgreSQL';
  /** As the database names itself, e.g. "PostgreSQL 18.6 (PGlite 0.5.16)". */
  databaseVersion: string;
}

/** One dependency the product ships with, by the licence its package declares. */
export interface DependencyLicence {
  id: string;
  name: string;
  version: string;
  licence: string;
  homepage: string | null;
}
