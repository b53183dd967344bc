export { message, messages, type MessageKey, type MessageLanguage } from './messages';
export * from './rules';
export * from './validate';
export { createValidator, validateParticipantValue, type BaseRule, type ParticipantRule } from './ruleCheck';
