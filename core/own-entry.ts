/**
 * `table[key]` for a key that comes from outside (a query string, a form, a visitor's `utm_source`):
 * only the table's own entries. A plain object also answers `constructor`, `__proto__`, `toString`
 * and the rest of what every object inherits, which would reach a page or a query as a function.
 */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined)
