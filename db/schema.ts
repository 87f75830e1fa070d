/** Every table, for drizzle-kit. Each module owns its `table.ts`; this barrel only re-exports. */
export * from './core-tables.ts'
export * from '../modules/activity/table.ts'
export * from '../modules/auth/table.ts'
export * from '../modules/vendors/table.ts'
export * from '../modules/jobs/table.ts'
export * from '../modules/candidates/table.ts'
export * from '../modules/bench/table.ts'
export * from '../modules/outbox/table.ts'
