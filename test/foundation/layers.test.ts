import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies point inward: transports (http, mcp, cli, control) -> engine -> core <-
 * store / providers, wired by the composition root (src/engram.ts). Each inner layer may
 * import only the layers listed for it; a relative import of any other part of src/ fails
 * here (packages from node_modules are not layers).
 */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  contract: ['core'],
  engine: ['core', 'contract'],
  store: ['core'],
  providers: ['core', 'config'],
  observability: ['core'],
};

const SRC = resolve(__dirname, '../../src');

/** src/<dir>/... -> dir; src/<file>.ts -> file (config, engram, version). */
const layerOf = (file: string) =>
  relative(SRC, file)
    .split('/')[0]!
    .replace(/\.[jt]s$/, '');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import (static, dynamic, re-export) of a file, as "from layer -> to layer". */
function crossings(file: string): { to: string; spec: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    .map((m) => ({ spec: m[1]!, to: layerOf(resolve(dirname(file), m[1]!)) }))
    .filter((c) => c.to !== layerOf(file));
}

describe('import direction', () => {
  const files = sources(SRC);

  it('finds the layers it checks', () => {
    for (const layer of Object.keys(ALLOWED))
      expect(
        files.some((f) => layerOf(f) === layer),
        layer,
      ).toBe(true);
  });

  it('imports of each inner layer point only inward', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      const allowed = ALLOWED[from];
      if (!allowed) continue; // transports and the composition root may import inward freely
      for (const c of crossings(file))
        if (!allowed.includes(c.to))
          wrong.push(`${relative(SRC, file)} imports ${c.spec} (${from} -> ${c.to})`);
    }
    expect(wrong).toEqual([]);
  });
});
