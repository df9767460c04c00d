/**
 * Where a knowledge document's files are kept in the object store: the file it was made
 * from (an upload to the v1 knowledge wiki, or an uploaded object named as its source).
 */
export const sql = `
ALTER TABLE kb_documents ADD COLUMN original_key text;
`;
