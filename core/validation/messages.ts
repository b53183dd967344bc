/**
 * The form messages of SPEC section 5, in every language the product ships. Placeholders in
 * braces are filled by `message()`.
 */
export const messages = {
  en: {
    required: 'This field is required.',
    acceptTerms: 'You must accept the terms and conditions in order to proceed.',
    email: 'Must be a valid email format.',
    us_phone: 'Must match the format 000-000-0000.',
    min: 'Minimum {length} characters.',
    max: 'Maximum {length} characters.',
    numeric: 'Must only contain numbers.',
    date_format: 'Must match format mm/dd/yyyy.',
    color_hex: 'Must be 6 or 2 hex characters.',
    code: 'Enter the 6-digit code from your authenticator app.',
    boolean: 'Must be true or false.',
    integer: 'Must be a whole number.',
    choice: 'Choose one of the options.',
    zip_unknown: 'Enter a valid US ZIP code.',
  },
  es: {
    required: 'Este campo es obligatorio.',
    acceptTerms: 'Debe aceptar los términos y condiciones para continuar.',
    email: 'Debe ser un formato de correo electrónico válido.',
    us_phone: 'Debe coincidir con el formato 000-000-0000.',
    min: 'Mínimo {length} caracteres.',
    max: 'Máximo {length} caracteres.',
    numeric: 'Solo debe contener números.',
    date_format: 'Debe coincidir con el formato mm/dd/aaaa.',
    color_hex: 'Debe tener 6 o 2 caracteres hexadecimales.',
    code: 'Introduzca el código de 6 dígitos de su aplicación de autenticación.',
    boolean: 'Debe ser verdadero o falso.',
    integer: 'Debe ser un número entero.',
    choice: 'Elija una de las opciones.',
    zip_unknown: 'Introduzca un código postal válido de EE. UU.',
  },
} as const;

export type MessageKey = keyof (typeof messages)['en'];
export type MessageLanguage = keyof typeof messages;

/** A message in `lang` (falling back to English) with `{name}` placeholders filled. */
export function message(key: MessageKey, params: Record<string, string | number> = {}, lang: string = 'en'): string {
  const base = lang.split(/[-_]/)[0] as MessageLanguage;
  const catalogue = messages[base] ?? messages.en;
  return catalogue[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
