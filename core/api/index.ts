export * from './client';
export { authApi, type RefreshResult } from './auth';
export { sponsorsApi } from './sponsors';
export { countriesApi } from './countries';
