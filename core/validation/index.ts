export { message, ruleMessage, type MessageKey, type MessageLanguage, type RuleMessageKey } from './messages';
export * from './rules';
export * from './validate';
export { createValidator, validateParticipantValue, type BaseRule, type ParticipantRule } from './ruleCheck';
