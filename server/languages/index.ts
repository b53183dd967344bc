/** What other areas may use of languages. */
export { assertTranslationLanguages } from './translations';
