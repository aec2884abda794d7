// The EventStore port and its two adapters (PGlite, postgres.js) on one SQL schema.
export * from './types.ts';
export * from './errors.ts';
export * from './migrate.ts';
export * from './eventStore.ts';
export * from './projectionDdl.ts';
export * from './pglite.ts';
export * from './postgres.ts';
export * from './open.ts';
export * from './lease.ts';
export { extendStream, streamKey, streamPrefix } from './write.ts';
