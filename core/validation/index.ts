export { message, messages, type MessageKey, type MessageLanguage } from './messages';
export * from './rules';
export * from './validate';
