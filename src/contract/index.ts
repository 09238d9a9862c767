export * from './constants';
export * from './entities';
export * from './envelope';
export * from './messages';
export * from './routes';
export * from './validation';
export * from './api';
export * from './library';
