export * from './authoring';
export * from './navigation';
export * from './progress';
export * from './history';
export * from './answers';
export * from './runner';
