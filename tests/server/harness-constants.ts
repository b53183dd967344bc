/** The seeded admin's password in API tests (shared by the harness and its PGlite template). */
export const ADMIN_PASSWORD = 'correct horse battery';
