import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../core/db.js';
import { EngramError } from '../core/errors.js';
import { iso } from '../core/time.js';

export type ApiVersion = 'v1' | 'v2';

export interface Principal {
  tenantId: string;
  keyId: string;
  apiVersion: ApiVersion;
}

export interface KeyRecord {
  key_id: string;
  tenant_id: string;
  api_version: ApiVersion;
  label: string | null;
  created_at: string | null;
  revoked_at: string | null;
}

export const TENANT_RE = /^[a-zA-Z0-9_.@+-]{1,128}$/;
const KEY_RE = /^egm_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** The key id a full key or a bare key id stands for (never the secret). */
export const keyIdOf = (keyOrId: string): string => KEY_RE.exec(keyOrId)?.[1] ?? keyOrId;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * API keys: `egm_<key id>_<secret>`. Only the SHA-256 of the secret is stored (the
 * secret is 256 random bits, so a slow password hash buys nothing); the key id locates
 * the row and the hash comparison is constant-time.
 */
export class KeyService {
  constructor(private readonly db: Db) {}

  async create(
    tenantId: string,
    apiVersion: ApiVersion = 'v2',
    label?: string,
  ): Promise<{ key: string } & KeyRecord> {
    if (!TENANT_RE.test(tenantId))
      throw new EngramError('InvalidParameter', 'tenant must be 1-128 characters of [a-zA-Z0-9_.@+-]', {
        param: 'tenant',
      });
    const keyId = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const rows = await this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING', [tenantId]);
      return tx.query<KeyRow>(
        `INSERT INTO api_keys (tenant_id, key_id, secret_hash, api_version, label)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [tenantId, keyId, hashSecret(secret), apiVersion, label ?? null],
      );
    });
    return { key: `egm_${keyId}_${secret}`, ...toRecord(rows[0]!) };
  }

  async list(tenantId?: string): Promise<KeyRecord[]> {
    const rows = await this.db.query<KeyRow>(
      `SELECT * FROM api_keys WHERE ($1::text IS NULL OR tenant_id = $1) ORDER BY created_at, key_id`,
      [tenantId ?? null],
    );
    return rows.map(toRecord);
  }

  /** Revokes by key id (or the full key). Returns false when no active key matched. */
  async revoke(keyOrId: string): Promise<boolean> {
    const keyId = keyIdOf(keyOrId);
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = now() WHERE key_id = $1 AND revoked_at IS NULL RETURNING key_id',
      [keyId],
    );
    return rows.length > 0;
  }

  /** The principal a presented key stands for, or undefined when it is unknown or revoked. */
  async verify(presented: string): Promise<Principal | undefined> {
    const m = KEY_RE.exec(presented);
    if (!m) return undefined;
    const [, keyId, secret] = m as unknown as [string, string, string];
    const rows = await this.db.query<KeyRow>(
      'SELECT * FROM api_keys WHERE key_id = $1 AND revoked_at IS NULL',
      [keyId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const expected = Buffer.from(row.secret_hash, 'hex');
    const actual = Buffer.from(hashSecret(secret), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    return { tenantId: row.tenant_id, keyId: row.key_id, apiVersion: row.api_version };
  }

  /** Makes sure a tenant row exists (stdio MCP acts as a configured local tenant). */
  async ensureTenant(tenantId: string): Promise<void> {
    await this.db.query('INSERT INTO tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING', [tenantId]);
  }
}

interface KeyRow {
  [k: string]: unknown;
  tenant_id: string;
  key_id: string;
  secret_hash: string;
  api_version: ApiVersion;
  label: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const toRecord = (r: KeyRow): KeyRecord => ({
  key_id: r.key_id,
  tenant_id: r.tenant_id,
  api_version: r.api_version,
  label: r.label,
  created_at: iso(r.created_at),
  revoked_at: iso(r.revoked_at),
});
