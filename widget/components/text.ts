export { participantStrings as participantText } from '@core/i18n/participant';
