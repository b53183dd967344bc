/**
 * The form messages of SPEC section 5, in every language the product ships. Placeholders in
 * braces are filled by `message()`.
 *
 * Two catalogues, each message once: the participant's rules' own (what the rule runner answers,
 * in a participant's browser as on the server) and the rest, which only the server gives or the
 * admin shows (color_hex among them: only staff set colours). The widget reaches only the first through `ruleMessage`, so partners' pages do not
 * download staff texts.
 */
const ruleMessages = {
  en: {
    required: 'This field is required.',
    acceptTerms: 'You must accept the terms and conditions in order to proceed.',
    email: 'Must be a valid email format.',
    us_phone: 'Must match the format 000-000-0000.',
    min: 'Minimum {length} characters.',
    max: 'Maximum {length} characters.',
    numeric: 'Must only contain numbers.',
    date_format: 'Must match format mm/dd/yyyy.',
    postal: 'Must be a valid postal code.',
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
    postal: 'Debe ser un código postal válido.',
  },
} as const;

const otherMessages = {
  en: {
    code: 'Enter the 6-digit code from your authenticator app.',
    boolean: 'Must be true or false.',
    integer: 'Must be a whole number.',
    choice: 'Choose one of the options.',
    zip_unknown: 'Enter a valid US ZIP code.',
    place_unknown: 'We could not find this postal code or town. Try the nearest town.',
    color_hex: 'Must be 6 or 2 hex characters.',
    dob_future: 'A date of birth cannot be in the future.',
  },
  es: {
    code: 'Introduzca el código de 6 dígitos de su aplicación de autenticación.',
    boolean: 'Debe ser verdadero o falso.',
    integer: 'Debe ser un número entero.',
    choice: 'Elija una de las opciones.',
    zip_unknown: 'Introduzca un código postal válido de EE. UU.',
    place_unknown: 'No encontramos este código postal o ciudad. Pruebe con la ciudad más cercana.',
    color_hex: 'Debe tener 6 o 2 caracteres hexadecimales.',
    dob_future: 'La fecha de nacimiento no puede ser futura.',
  },
} as const;

export type MessageLanguage = keyof typeof ruleMessages;
export type RuleMessageKey = keyof (typeof ruleMessages)['en'];
export type MessageKey = RuleMessageKey | keyof (typeof otherMessages)['en'];
type Params = Readonly<Record<string, string | number | boolean | undefined>>;

const languageOf = (lang: string): MessageLanguage => (lang.split(/[-_]/)[0] === 'es' ? 'es' : 'en');
const fill = (text: string, params: Params) => text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
const isRuleKey = (key: MessageKey): key is RuleMessageKey => key in ruleMessages.en;

/** A rule's message in `lang` (falling back to English) with `{name}` placeholders filled. */
export function ruleMessage(key: RuleMessageKey, params: Params = {}, lang: string = 'en'): string {
  return fill(ruleMessages[languageOf(lang)][key], params);
}

/** Any message in `lang` (falling back to English) with `{name}` placeholders filled. */
export function message(key: MessageKey, params: Params = {}, lang: string = 'en'): string {
  return isRuleKey(key) ? ruleMessage(key, params, lang) : fill(otherMessages[languageOf(lang)][key], params);
}
