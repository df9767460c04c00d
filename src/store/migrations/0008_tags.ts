/**
 * Memory tags (episodes.tags, set with /api/v2/memory/tag/* and matched by the `tags`
 * filter) and the profile version /api/v2/memory/edit reports.
 */
export const sql = `
ALTER TABLE episodes ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
CREATE INDEX episodes_tags ON episodes USING gin (tags);
ALTER TABLE profiles ADD COLUMN version integer NOT NULL DEFAULT 1;
`;
