/**
 * The careers search's place filter, on one reading of a location: `jobPlace` reads what a candidate
 * typed and every job's location alike (the reading the job page, its JobPosting data, the feeds and
 * the pay-transparency check use), and the search compares the two readings. A job's reading is
 * stored per location text (`job_location_places`), so SQL filters on it rather than on a second
 * reading of the text written in SQL (two readings disagreed: "Remote (CA) Denver, CO" was in CO for
 * the page and in CA for the search; "Austin, TX/Remote" named no state for one of them).
 *
 * What a candidate gets (job-search.test.ts holds it, with vendors' real location strings):
 * - a state ("TX", "Texas") finds the jobs in that state; a town and its state ("Austin, TX") the jobs in
 *   that town, one of towns joined by a slash too ("Fort Worth, TX": "Dallas/Fort Worth, TX"); a country
 *   ("US", "Canada") the jobs in that country, remote ones restricted to it included;
 * - a town alone ("Austin") finds the jobs in a town of that name, and the jobs whose location names it;
 * - "New York" is the city, as for a job whose location is "New York" ("NY" or "New York State" is the state);
 * - text that names no place ("Remote", "Bay Area") finds the jobs whose location holds it as whole words.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { escapeRegExp } from '../../core/text-search.ts'
import type { Db } from '../../db/client.ts'
import { jobPlace } from './job-facts.ts'
import { jobLocationPlaces } from './table.ts'

/** The version of the reading: raise it when `parseLocation` or `jobPlace` reads a text otherwise, and every stored place is read again. */
export const PLACE_RULE = 4
/** Locations longer than this are not stored (an index entry has a size limit): they are found by their words only. */
const LONGEST_STORED = 500
/** Locations read in one go, before the next go (a workspace's distinct locations are a few hundred). */
const BATCH = 500

/** A name as compared: lower case, any run of spaces (no-break ones too) as one. */
export const placeKey = (name: string | null): string | null => (name ? name.toLowerCase().replace(/\s+/g, ' ').trim() || null : null)

/** A location's place as stored: the keys of `jobPlace`'s locality, region and country. */
export function storedPlace(location: string) {
	const place = jobPlace({ location, schedule: null })
	return { locality: placeKey(place.locality), region: placeKey(place.region), country: place.country }
}

/**
 * Reads and stores the place of each location of the workspace's open jobs that has none under the
 * current rule (new jobs, changed locations, a new rule). Written by whichever search comes first;
 * two at once write the same answer. In text order: a job alert's digest writes in its own
 * transaction, and two writers locking the same rows in one order never wait on each other in a circle.
 */
export async function placeOpenJobLocations(deps: AppDeps, workspaceId: string, db: Db = deps.db): Promise<void> {
	for (let round = 0; round < 1000; round++) {
		const missing = await deps.database.rows<{ location: string }>(
			sql`select distinct j.location from jobs j left join ${jobLocationPlaces} p on p.location = j.location and p.rule = ${PLACE_RULE}
			where j.workspace_id = ${workspaceId} and j.status = 'Open' and j.location is not null and char_length(j.location) <= ${LONGEST_STORED}
			and p.location is null order by j.location limit ${BATCH}`,
			db,
		)
		if (!missing.length) return
		const rows = missing.map(({ location }) => ({ location, rule: PLACE_RULE, ...storedPlace(location) }))
		await db
			.insert(jobLocationPlaces)
			.values(rows)
			.onConflictDoUpdate({
				target: jobLocationPlaces.location,
				set: { rule: sql`excluded.rule`, locality: sql`excluded.locality`, region: sql`excluded.region`, country: sql`excluded.country` },
			})
		if (missing.length < BATCH) return
	}
}

/**
 * `j.location` holds `text` as whole words, in any case: "US" is not the "us" of Austin or Columbus, nor
 * "Austin" the start of Austintown. Word edges are anything but an ASCII letter, digit or underscore,
 * and a space any run of spaces, tabs or no-break spaces, as in `REMOTE_LOCATION_WORDS`.
 */
const holdsWords = (text: string) => sql`j.location ~* ${`(^|[^a-z0-9_])${escapeRegExp(text).replace(/ +/g, '[ \\t\\u00a0]+')}([^a-z0-9_]|$)`}`

/** The condition on a job `j` that it is where `typed` says (the rules at the top of this file). */
export function placeCondition(typed: string): SQL {
	const place = storedPlace(typed)
	const stored = (condition: SQL) =>
		sql`exists (select 1 from ${jobLocationPlaces} p where p.location = j.location and p.rule = ${PLACE_RULE} and ${condition})`
	const same: SQL[] = []
	// A town among towns joined by a slash ("Dallas/Fort Worth, TX") is one of the places.
	if (place.locality) same.push(sql`(p.locality = ${place.locality} or ${place.locality} = any(string_to_array(p.locality, '/')))`)
	if (place.region) same.push(sql`p.region = ${place.region}`)
	if (place.country) same.push(sql`p.country = ${place.country}`)
	if (!same.length) return holdsWords(typed)
	const found = stored(sql.join(same, sql` and `))
	// A town alone: where it is, or a location naming it ("Remote (Austin preferred)").
	return place.region || place.country ? found : sql`(${found} or ${holdsWords(typed)})`
}
