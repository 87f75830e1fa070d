/**
 * The declared event types, from the registry: well named, each declared once, every consumer's types
 * declared, data schemas pinned by a snapshot (a receiver relies on them), and data that cannot carry
 * free text: every string is a record id (`…Id`), a listed value, or a key of the workspace's own lists
 * (`x-key`), so erasing a person never has to look at events.
 */
import { expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { buildRegistry, contributionsTo } from '../../core/registry.ts'
import { eventConsumers, eventProblems, eventTypes } from '../../modules/events/index.ts'
import { modules } from '../../modules/index.ts'

const registry = buildRegistry(modules)
const types = contributionsTo(registry, eventTypes)

test('event types and consumers are declared right', () => {
	expect(eventProblems(types, contributionsTo(registry, eventConsumers))).toEqual([])
	expect(types.length).toBeGreaterThanOrEqual(10)
})

test('event data schemas (update with bun test --update-snapshots after a deliberate change)', () => {
	expect(Object.fromEntries(types.map((t) => [t.type, t.data]))).toMatchSnapshot()
})

/** Paths of string values in `schema` that could hold free text. */
function freeText(schema: TSchema & Record<string, any>, path: string): string[] {
	if (schema.const !== undefined) return []
	if (schema.anyOf) return schema.anyOf.flatMap((s: TSchema) => freeText(s as never, path))
	if (schema.type === 'object') return Object.entries(schema.properties ?? {}).flatMap(([k, s]) => freeText(s as never, `${path}.${k}`))
	if (schema.type === 'array') return freeText(schema.items, `${path}[]`)
	// A list of ids is named like one (`applicationIds`).
	if (schema.type === 'string' && !/(^|\.)(id|[a-z]+Id|[a-z]+Ids\[\])$/.test(path) && !schema['x-key']) return [path]
	return []
}

test('event data holds ids, listed values and keys only, never free text', () => {
	expect(types.flatMap((t) => freeText(t.data as never, t.type))).toEqual([])
})
