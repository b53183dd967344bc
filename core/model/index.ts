export * from './fields';
export * from './sponsor';
export * from './country';
export * from './user';
