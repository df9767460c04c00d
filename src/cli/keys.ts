import { type ApiVersion, type KeyRecord, keyIdOf } from '../engine/keys.js';
import type { CliContext } from './main.js';
import { viaOwnerOrLocal } from './owner.js';

export async function runKeys(ctx: CliContext): Promise<number> {
  const [sub, arg] = ctx.positionals;
  const { config, log, flags } = ctx;
  switch (sub) {
    case 'create': {
      const tenant = flags['tenant'];
      if (typeof tenant !== 'string' || tenant === '') {
        process.stderr.write('engram: keys create needs --tenant NAME\n');
        return 2;
      }
      const apiVersion = (flags['api-version'] ?? 'v2') as string;
      if (apiVersion !== 'v1' && apiVersion !== 'v2') {
        process.stderr.write('engram: --api-version must be v1 or v2\n');
        return 2;
      }
      const label = typeof flags['label'] === 'string' ? flags['label'] : undefined;
      const args = { tenant, apiVersion: apiVersion as ApiVersion, ...(label ? { label } : {}) };
      const created = await viaOwnerOrLocal<{ key: string } & KeyRecord>(
        config,
        log,
        'keys create',
        { op: 'keys.create', args },
        (e) => e.keys.create(tenant, args.apiVersion, label),
      );
      // stdout holds the key alone (KEY=$(engram keys create ...)); the id goes to stderr
      ctx.out(created.key);
      process.stderr.write(
        `created key ${created.key_id} for tenant ${created.tenant_id} (${created.api_version}); ` +
          `revoke it with: engram keys revoke ${created.key_id}\n`,
      );
      return 0;
    }
    case 'list': {
      const tenant = typeof flags['tenant'] === 'string' ? flags['tenant'] : undefined;
      const keys = await viaOwnerOrLocal<KeyRecord[]>(
        config,
        log,
        'keys list',
        { op: 'keys.list', args: tenant ? { tenant } : {} },
        (e) => e.keys.list(tenant),
      );
      if (flags['json']) ctx.out(JSON.stringify(keys));
      else {
        ctx.out(['KEY_ID', 'TENANT', 'API', 'CREATED', 'STATUS', 'LABEL'].join('\t'));
        for (const k of keys)
          ctx.out(
            [
              k.key_id,
              k.tenant_id,
              k.api_version,
              k.created_at,
              k.revoked_at ? 'revoked' : 'active',
              k.label ?? '',
            ].join('\t'),
          );
      }
      return 0;
    }
    case 'revoke': {
      if (!arg) {
        process.stderr.write('engram: keys revoke needs KEY_ID (or the whole key)\n');
        return 2;
      }
      const ok = await viaOwnerOrLocal<boolean>(
        config,
        log,
        'keys revoke',
        { op: 'keys.revoke', args: { key: arg } },
        (e) => e.keys.revoke(arg),
      );
      if (!ok) {
        process.stderr.write(`engram: no active key ${keyIdOf(arg)}\n`);
        return 1;
      }
      process.stderr.write(`revoked key ${keyIdOf(arg)}\n`);
      return 0;
    }
    default:
      process.stderr.write('engram: keys needs a subcommand: create, list or revoke\n');
      return 2;
  }
}
