// The tracked user's display name as one SQL expression, shared by every query that shows a
// tracked user so the chain lives in exactly one place.
import { type RawBuilder, sql } from "kysely";

/**
 * A trait as a display name: strings, numbers and booleans as trimmed text; anything else (absent,
 * null, object, array) and blank text fall through to the next step (NULL).
 */
function traitName(traits: RawBuilder<unknown>, key: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`CASE WHEN jsonb_typeof(${traits} -> ${key}) IN ('string', 'number', 'boolean')
    THEN NULLIF(btrim(${traits} ->> ${key}), '') END`;
}

/**
 * userDisplayName for a row joined to `tracked_users` (alias `trackedUser`) and its project
 * (alias `project`): custom name → the trait named by the user's own key → the trait named by the
 * project's key → the `name` trait → the `email` trait → externalId. The two conventional traits
 * come before the id so that a site which sends them is readable without any setting. NULL when
 * the row has no tracked user (a LEFT JOIN miss), because every step is then NULL.
 */
export function displayNameSql(
  trackedUser = "tracked_users",
  project = "projects",
): RawBuilder<string | null> {
  const traits = sql.ref(`${trackedUser}.traits`);
  return sql<string | null>`COALESCE(
    NULLIF(btrim(${sql.ref(`${trackedUser}.custom_name`)}), ''),
    ${traitName(traits, sql.ref(`${trackedUser}.display_name_trait_key`))},
    ${traitName(traits, sql.ref(`${project}.display_name_trait_key`))},
    ${traitName(traits, sql.lit("name"))},
    ${traitName(traits, sql.lit("email"))},
    btrim(${sql.ref(`${trackedUser}.external_id`)})
  )`;
}
