import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The control socket lets a second engram process work through the process that owns an
 * embedded data directory instead of opening it (which would lose writes). It is a Unix
 * socket readable by the owner's user only; each connection sends one JSON line
 * `{op, args}` and reads one JSON line `{ok, result | error}`. The `mcp` op then turns the
 * connection into an MCP stdio stream served by the owner.
 */
export type ControlRequest =
  | { op: 'ping' }
  | { op: 'keys.create'; args: { tenant: string; apiVersion: 'v1' | 'v2'; label?: string } }
  | { op: 'keys.list'; args: { tenant?: string } }
  | { op: 'keys.revoke'; args: { key: string } }
  | { op: 'v1.migrate'; args: { tenant: string; batch: number } }
  | { op: 'purge'; args: { olderThanMs: number; tenant?: string } }
  | { op: 'mcp'; args: { tenant: string } };

export type ControlResponse =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: string; message: string } };

/** Unix socket paths are limited to ~107 bytes; long data dirs fall back to the temp dir. */
export function controlSocketPath(dataDir: string): string {
  const inDir = join(dataDir, 'engram.sock');
  if (Buffer.byteLength(inDir) < 100) return inDir;
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return join(tmpdir(), `engram-${hash}.sock`);
}
