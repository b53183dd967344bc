export * from './authoring';
export * from './navigation';
export * from './progress';
export * from './history';
