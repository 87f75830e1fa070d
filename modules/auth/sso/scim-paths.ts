/**
 * Which schema a PATCH path names (RFC 7644 §3.5.2, §3.10), or a path-less value's key: the resource's
 * own (the path is then read by `userPatch` / `groupPatch`), an extension Benchline knows (the
 * enterprise User's: its attributes are checked, then ignored: none is kept), or an extension it
 * does not know, whose attributes are ignored as POST and PUT ignore them. Microsoft Entra sends a
 * tenant's custom attribute so (`urn:ietf:params:scim:schemas:extension:CustomExtensionName:2.0:User:CustomAttribute`),
 * and refusing it made every update of such a tenant's people fail. Still refused (400 `invalidPath`):
 * a path that is no `urn:…:attribute` (RFC 7644 §3.10's grammar), an unknown attribute of a schema
 * Benchline knows, and an attribute of a schema of SCIM itself that is not this resource's
 * (`urn:ietf:params:scim:schemas:core:2.0:Group:members` sent to a User): those names are known, and
 * a 200 would tell the provider a change was made.
 */
import { AppError, invalid } from '../../../core/errors.ts'

/** RFC 7644 §3.5.2: "the path attribute ... does not ... resolve to an attribute". */
export const invalidPath = (path: string, why: string) =>
	new AppError('VALIDATION', `${path}: ${why}`, { scimType: 'invalidPath', fields: [{ field: 'path', message: why }] })

export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'

/** RFC 7643 §4.3: the enterprise User's attributes (`manager` with its sub-attributes). */
const ENTERPRISE_ATTRIBUTE = /^(employeeNumber|costCenter|organization|division|department|manager(\.(value|\$ref|displayName))?)$/i

/** An extension a resource takes, and the paths (without its URN) that name its attributes. */
export interface Extension {
	schema: string
	attribute: RegExp
}

export const ENTERPRISE_USER: Extension = { schema: ENTERPRISE_USER_SCHEMA, attribute: ENTERPRISE_ATTRIBUTE }

/** The schemas of SCIM itself (RFC 7643 §8.7, RFC 7644 §3.1): known, never an extension of a tenant's. */
const SCIM_SCHEMA = /^urn:ietf:params:scim:(schemas:core|api):/i

/**
 * RFC 7644 §3.10: `URI ":" ATTRNAME` with an optional value filter (`[…]`) and sub-attribute, the URI
 * a URN (`urn:` NID `:` NSS). The URI is cut at the last colon outside the filter.
 */
const URN_PATH = /^(urn:[a-z0-9][a-z0-9-]{0,31}:[^\s[\]]*[^\s[\]:]):(\$?[a-z][\w-]*(\[[^[\]]*\])?(\.\$?[a-z][\w-]*)?)$/i

const under = (path: string, schema: string) => path.toLowerCase().startsWith(`${schema.toLowerCase()}:`)
const isSchema = (path: string, schema: string) => path.toLowerCase() === schema.toLowerCase()

/** The attributes named by a value sent to an extension's URN alone (`{"urn:…:enterprise:2.0:User": {…}}`). */
function extensionValue(extension: Extension, value: unknown, remove: boolean): void {
	if (remove || value === null || value === undefined) return
	if (typeof value !== 'object' || Array.isArray(value))
		throw invalid([{ field: extension.schema, message: 'must be an object of the extension’s attributes' }])
	for (const key of Object.keys(value))
		if (!extension.attribute.test(key)) throw invalidPath(`${extension.schema}:${key}`, 'is not an attribute of the extension')
}

/**
 * The path without the resource's schema URN (`schema`) for the caller to read, or null when it names
 * an attribute of an extension (`extensions`, checked) or of a schema Benchline does not know: ignored.
 */
export function ownPath(sentPath: string, value: unknown, remove: boolean, schema: string, extensions: Extension[]): string | null {
	if (!/^urn:/i.test(sentPath)) return sentPath
	if (under(sentPath, schema)) return sentPath.slice(schema.length + 1)
	const extension = extensions.find((e) => isSchema(sentPath, e.schema) || under(sentPath, e.schema))
	if (extension) {
		if (isSchema(sentPath, extension.schema)) extensionValue(extension, value, remove)
		else if (!extension.attribute.test(sentPath.slice(extension.schema.length + 1))) throw invalidPath(sentPath, 'is not an attribute of the extension')
		return null
	}
	if (!URN_PATH.test(sentPath)) throw invalidPath(sentPath, 'is not a path: it must be a schema URN, a colon and an attribute name')
	if (SCIM_SCHEMA.test(sentPath) || under(sentPath, ENTERPRISE_USER_SCHEMA) || isSchema(sentPath, ENTERPRISE_USER_SCHEMA))
		throw invalidPath(sentPath, `is not an attribute of ${schema}`)
	return null
}
