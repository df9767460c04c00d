import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/**
 * The offline embedder's word vectors in a compact binary form, so a new process is ready
 * in milliseconds instead of parsing the 300 MB JSON (seconds). Written once, next to the
 * installed package (`node_modules/.cache/engram/`), keyed by the source file's size and
 * mtime, so reinstalling the package makes a new one. Layout (little endian):
 *
 *   header  8 x u32: magic "EGV1", version, dims, count, tableSize, wordsBytes, 0, 0
 *   rows    count x dims int8 (unit vectors x 127), padded to 4 bytes
 *   offsets (count + 1) x u32: byte range of each word in `words`
 *   table   tableSize x i32: open-addressing hash table (FNV-1a, linear probing), row or -1
 *   words   UTF-8 bytes of every word
 *
 * A lookup hashes the word, probes the table and compares bytes: no Map of 400k strings
 * is ever built, so loading is one file read.
 */
export interface WordVectors {
  /** Row of a word in `rows`, or undefined. */
  lookup(word: string): number | undefined;
  /** dims int8 components per row. */
  rows: Int8Array;
}

const MAGIC = 0x31564745; // "EGV1"
const VERSION = 1;
const HEADER = 32;

/** Where the cache of a source file lives, or undefined when it is not an installed package. */
export function cachePath(source: string): string | undefined {
  const at = source.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  let st: { size: number; mtimeMs: number };
  try {
    st = statSync(source);
  } catch {
    return undefined;
  }
  const root = source.slice(0, at + `${sep}node_modules`.length);
  const name = `${basename(source).replace(/\.json$/, '')}-v${VERSION}-${st.size}-${Math.trunc(st.mtimeMs)}.bin`;
  return join(root, '.cache', 'engram', name);
}

/**
 * The vectors from a cache file, or undefined when it is missing or not of this format. Read
 * off the main thread, so it overlaps with the store opening at start.
 */
export async function readCache(path: string, dims: number): Promise<WordVectors | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch {
    return undefined;
  }
  if (buf.length < HEADER || buf.byteOffset % 4 !== 0) return undefined;
  const h = new Uint32Array(buf.buffer, buf.byteOffset, 8);
  if (h[0] !== MAGIC || h[1] !== VERSION || h[2] !== dims) return undefined;
  const count = h[3]!;
  const tableSize = h[4]!;
  const wordsBytes = h[5]!;
  const rowsBytes = pad4(count * dims);
  const size = HEADER + rowsBytes + 4 * (count + 1) + 4 * tableSize + wordsBytes;
  if (buf.length !== size || tableSize === 0 || (tableSize & (tableSize - 1)) !== 0) return undefined;
  let o = buf.byteOffset + HEADER;
  const rows = new Int8Array(buf.buffer, o, count * dims);
  o += rowsBytes;
  const offsets = new Uint32Array(buf.buffer, o, count + 1);
  o += 4 * (count + 1);
  const table = new Int32Array(buf.buffer, o, tableSize);
  o += 4 * tableSize;
  const words = Buffer.from(buf.buffer, o, wordsBytes);
  return { rows, lookup: (word) => probe(table, offsets, words, word) };
}

/** Writes the cache atomically; a failure (read-only install) is ignored: the next process parses again. */
export function writeCache(path: string, dims: number, words: readonly string[], rows: Int8Array): boolean {
  try {
    const encoded = words.map((w) => Buffer.from(w, 'utf8'));
    const wordsBytes = encoded.reduce((n, b) => n + b.length, 0);
    let tableSize = 1;
    while (tableSize < words.length * 2) tableSize *= 2;
    const rowsBytes = pad4(words.length * dims);
    const out = Buffer.alloc(HEADER + rowsBytes + 4 * (words.length + 1) + 4 * tableSize + wordsBytes);
    const h = new Uint32Array(out.buffer, out.byteOffset, 8);
    h.set([MAGIC, VERSION, dims, words.length, tableSize, wordsBytes, 0, 0]);
    let o = out.byteOffset + HEADER;
    new Int8Array(out.buffer, o, words.length * dims).set(rows.subarray(0, words.length * dims));
    o += rowsBytes;
    const offsets = new Uint32Array(out.buffer, o, words.length + 1);
    o += 4 * (words.length + 1);
    const table = new Int32Array(out.buffer, o, tableSize).fill(-1);
    o += 4 * tableSize;
    const bytes = Buffer.from(out.buffer, o, wordsBytes);
    let at = 0;
    for (let i = 0; i < encoded.length; i++) {
      offsets[i] = at;
      encoded[i]!.copy(bytes, at);
      at += encoded[i]!.length;
    }
    offsets[encoded.length] = at;
    const mask = tableSize - 1;
    for (let i = 0; i < words.length; i++) {
      // the first occurrence of a word wins, as in the parsed file
      if (probe(table, offsets, bytes, words[i]!) !== undefined) continue;
      let slot = fnv1a(words[i]!) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = i;
    }
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, out);
    renameSync(tmp, path);
    return true;
  } catch {
    return false;
  }
}

function probe(table: Int32Array, offsets: Uint32Array, words: Buffer, word: string): number | undefined {
  const mask = table.length - 1;
  const want = Buffer.from(word, 'utf8');
  for (let slot = fnv1a(word) & mask; ; slot = (slot + 1) & mask) {
    const row = table[slot]!;
    if (row === -1) return undefined;
    const start = offsets[row]!;
    const end = offsets[row + 1]!;
    if (end - start === want.length && words.compare(want, 0, want.length, start, end) === 0) return row;
  }
}

const pad4 = (n: number) => (n + 3) & ~3;

/** 32-bit FNV-1a hash (of UTF-16 code units): the vector table's and the bag of words' hash. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
