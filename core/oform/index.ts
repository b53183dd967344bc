export * from './authoring';
export * from './navigation';
export * from './progress';
export * from './history';
export * from './answers';
export * from './runner';
// ContactValue comes through ./runner, which re-exports it.
export { ACCEPT_TERMS, checkContact, contactFieldRules, contactValues, normalizeContactValue, type ContactFormField } from './contact';
