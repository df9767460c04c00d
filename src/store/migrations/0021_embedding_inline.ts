/**
 * Every searched embedding is kept in its row, as migration 0019 did for episodes. `vector`
 * is stored EXTERNAL by default: a row over the TOAST threshold (~2 kB) has its embedding,
 * the largest column that cannot be compressed, moved out first. A message turn (content,
 * search tsvector, sender, owners, 356-d embedding: ~2 kB on average) is often just over
 * it: in a PostgreSQL bench store 4 in 10 of an owner's turns had their embedding in the
 * TOAST table, and scoring an owner's 4,802 turns exactly read 5,913 buffers in 5.3 ms,
 * against 1,202 buffers in 3.5 ms with the embeddings in their rows (a copy of the same
 * rows). Facts, cases, skills and knowledge-base topics with long text cross the threshold
 * the same way. MAIN keeps the embedding in the row unless the row cannot fit otherwise:
 * the text columns and the tsvector go out first (compressed). Rows written before keep
 * their layout until rewritten (a turn's embedding is written by the UPDATE that processes
 * it; `engram reindex` after a change of embedding model rewrites every embedding).
 */
export const sql = `
ALTER TABLE messages ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE atomic_facts ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE agent_cases ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE agent_skills ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE kb_topics ALTER COLUMN embedding SET STORAGE MAIN;
`;
