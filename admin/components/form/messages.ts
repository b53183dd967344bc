/** Form messages of the admin that are not field rules of core/validation. */
export const IDENTIFICATION_TAKEN = 'This identification is already in use.';
