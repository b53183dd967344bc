/**
 * Field rules as plain predicates, shared by the admin forms, the widget and the server's
 * schemas. Each returns true when the value passes.
 */

// Deliberately simple: one @, no spaces, a dot in the domain. Full RFC 5322 is not what users mean.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const US_PHONE = /^\d{3}-\d{3}-\d{4}$/;
const NUMERIC = /^\d+$/;
const COLOR_HEX = /^(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{2})$/;
const TOTP_CODE = /^\d{6}$/;

export const isEmail = (value: string): boolean => EMAIL.test(value);
export const isUsPhone = (value: string): boolean => US_PHONE.test(value);
export const isNumeric = (value: string): boolean => NUMERIC.test(value);
export const isColorHex = (value: string): boolean => COLOR_HEX.test(value);
export const isTotpCode = (value: string): boolean => TOTP_CODE.test(value);
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
