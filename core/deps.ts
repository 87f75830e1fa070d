/**
 * What every route, tool, command and service receives (`AppDeps`): configuration, the database,
 * the logger, the compiled permissions, the rate limiter, the server secret and the clock.
 * Built once by `core/main.ts` (or a test) and passed down; nothing is a global.
 *
 * Declared with the module contract (core/module.ts): a module's definition takes the app's
 * dependencies, and the dependencies hold the registry of module definitions, so the two types refer
 * to each other and live in one file. This one is where the code base imports them from.
 */
export type { AppDeps, Lifecycle } from './module.ts'
