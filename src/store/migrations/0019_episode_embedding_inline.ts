/**
 * An episode's embedding is kept in its row. `vector` is stored EXTERNAL by default: an
 * episode row (summary, narrative, search tsvector, 356-d embedding: ~4 kB) is over the
 * TOAST threshold, and the embedding, the largest column that cannot be compressed, was
 * moved out first, so the exact nearest read of an owner's episodes fetched every
 * embedding from the TOAST table (measured on the embedded store, 1,000 episodes: 5,439
 * buffers and 8.4 ms of CPU, 276 buffers and 5.1 ms with the embeddings in their rows).
 * MAIN keeps it in the row unless the row cannot fit otherwise: the text columns and the
 * tsvector go out first (compressed). Rows written before keep their layout until rewritten.
 */
export const sql = `
ALTER TABLE episodes ALTER COLUMN embedding SET STORAGE MAIN;
`;
