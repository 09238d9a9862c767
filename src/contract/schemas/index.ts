// Each call's params, query and body, declared once as TypeBox schemas (JSON Schema the server
// validates against before any service runs) with the request types derived from them.
export * from './common';
export * from './account';
export * from './admin';
export * from './billing';
export * from './external';
export * from './library';
export * from './preview';
export * from './render';
export * from './search';
export * from './transcript';
