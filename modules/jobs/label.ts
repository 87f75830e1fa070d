/**
 * The name a person tells a job by. Jobs often share a title (17 of the demo's 40 do; a staffing
 * firm carries the same role for several clients and cities), so wherever a job is named — tool
 * results, MCP Apps views, portal pages, activity sentences — a title that another job of the
 * workspace also has is followed by what tells them apart: where, for which vendor, under which
 * reference ("Data Engineer (Snowflake) — Charlotte, NC · Acme Staffing · ref AC-1042"). A title
 * no other job has stays as it is. When twins have none of those, their addresses on the careers
 * site (the slug, unique in a workspace) tell them apart.
 *
 * It is SQL text so that every statement naming a job computes it in place (one round trip); it
 * names columns only, never a value, so raw text is safe. The twin lookup reads the
 * `jobs_workspace_title` index.
 */
export function jobLabelSql(alias: string): string {
	const j = alias
	return `(${j}.title || coalesce(case when exists (select 1 from jobs twin where twin.workspace_id = ${j}.workspace_id and twin.title = ${j}.title and twin.id <> ${j}.id)
		then ' — ' || coalesce(nullif(concat_ws(' · ', nullif(${j}.location, ''), (select v.name from vendors v where v.id = ${j}.vendor_id), 'ref ' || ${j}.vendor_job_id), ''), ${j}.slug) end, ''))`
}
