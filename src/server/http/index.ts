// The http room's public surface: what both handlers share of HTTP — reading bodies, mapping
// errors to answers, origin rules, event streams, logging with redaction, the script files.
export * from './client-address';
export * from './errors';
export * from './events';
export * from './logger';
export * from './origins';
export * from './read-body';
export * from './script-files';
export * from './shop-origin';
export * from './source-dist';
