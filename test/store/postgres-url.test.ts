import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db.js';
import { openStore } from '../../src/engram.js';
import { openPostgres } from '../../src/store/postgres.js';
import { connectionTarget } from '../../src/store/postgres-url.js';
import { ADMIN_URL, createPostgresDatabase, dropPostgresDatabase } from '../helpers/drivers.js';

describe('DATABASE_URL read as libpq reads it', () => {
  it('leaves a URL without host or port parameters as it is', () => {
    const url = 'postgres://engram:secret@db.internal:5433/engram?sslmode=require&application_name=x';
    expect(connectionTarget(url)).toEqual({ url });
    expect(connectionTarget('postgresql://db/engram')).toEqual({ url: 'postgresql://db/engram' });
  });

  it('takes a socket directory from the host parameter, with or without a user before the empty host', () => {
    expect(connectionTarget('postgresql:///engram?host=/var/run/postgresql')).toEqual({
      url: 'postgresql://localhost/engram',
      host: '/var/run/postgresql',
    });
    expect(
      connectionTarget('postgresql://engram@/engram?host=%2Fvar%2Frun%2Fpostgresql&sslmode=disable'),
    ).toEqual({
      url: 'postgresql://engram@localhost/engram?sslmode=disable',
      host: '/var/run/postgresql',
    });
  });

  it('takes the port parameter, and names a bad one', () => {
    expect(connectionTarget('postgres://u:p@h/engram?port=6432')).toEqual({
      url: 'postgres://u:p@h/engram',
      port: 6432,
    });
    expect(() => connectionTarget('postgres://h/engram?port=pg')).toThrow(
      /port must be a number from 1 to 65535, got "pg"/,
    );
    expect(() => connectionTarget('postgres://h/engram?port=70000')).toThrow(/port must be/);
  });
});

// A server on the same machine, reached through its Unix-domain socket (a test server in a
// container or on another machine has none here: the test is skipped there).
describe.skipIf(!ADMIN_URL)('DATABASE_URL naming a socket directory [postgres]', () => {
  let url: string;
  let socketUrl: string;
  let socketHere = false;
  beforeAll(async () => {
    url = await createPostgresDatabase();
    const admin = openPostgres(ADMIN_URL!, { max: 1 });
    try {
      const [row] = await admin.query<{ dirs: string; port: string }>(
        `SELECT current_setting('unix_socket_directories') AS dirs, current_setting('port') AS port`,
      );
      const u = new URL(url);
      const dir = row!.dirs.split(',')[0]!.trim();
      socketHere = dir !== '' && existsSync(join(dir, `.s.PGSQL.${row!.port}`));
      socketUrl = `postgresql://${u.username}@${u.pathname}?host=${encodeURIComponent(dir)}&port=${row!.port}`;
    } finally {
      await admin.close();
    }
  });
  afterAll(async () => {
    if (url) await dropPostgresDatabase(url);
  });

  it('opens the store through the socket', async (ctx) => {
    if (!socketHere) ctx.skip();
    const { db }: { db: Db } = await openStore(loadConfig({ DATABASE_URL: socketUrl }), 'test');
    try {
      const [row] = await db.query<{ addr: string | null; db: string }>(
        'SELECT inet_server_addr()::text AS addr, current_database() AS db',
      );
      // no server address: the connection is not TCP
      expect(row).toEqual({ addr: null, db: new URL(url).pathname.slice(1) });
    } finally {
      await db.close();
    }
  });
});
