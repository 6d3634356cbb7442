// When the project's scripts reinstall the npm packages: after the lock's contents change, not
// after a checkout that only gave it a new time.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a Node script without type declarations
import { npmPackagesStale } from './ensure-tools.mjs';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function checkout(lock: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'nicsim-ensure-'));
  made.push(root);
  writeFileSync(path.join(root, 'package-lock.json'), lock);
  return root;
}

function install(root: string, hash?: string) {
  mkdirSync(path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'node_modules', '.package-lock.json'), '{}');
  if (hash !== undefined) writeFileSync(path.join(root, 'node_modules', '.nicsim-lock-hash'), hash);
}

const old = new Date('2020-01-01T00:00:00Z');
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

describe('npmPackagesStale', () => {
  it('is stale with no node_modules', () => {
    expect(npmPackagesStale(checkout('lock v1'))).toBe(true);
  });

  it('without a recorded hash, compares times: a lock newer than the install is stale', () => {
    const root = checkout('lock v1');
    install(root);
    utimesSync(path.join(root, 'node_modules', '.package-lock.json'), old, old);
    expect(npmPackagesStale(root)).toBe(true);
    utimesSync(path.join(root, 'package-lock.json'), old, new Date('2019-01-01T00:00:00Z'));
    expect(npmPackagesStale(root)).toBe(false);
  });

  it('with a recorded hash, a newer lock with the same contents is not stale; new contents are', () => {
    const root = checkout('lock v1');
    install(root, `${hash('lock v1')}\n`);
    utimesSync(path.join(root, 'node_modules', '.package-lock.json'), old, old);
    expect(npmPackagesStale(root)).toBe(false);
    writeFileSync(path.join(root, 'package-lock.json'), 'lock v2');
    expect(npmPackagesStale(root)).toBe(true);
  });

  it('sees through a linked node_modules (a worktree sharing a checkout’s packages)', () => {
    const main = checkout('lock v1');
    install(main, hash('lock v1'));
    const worktree = checkout('lock v1');
    symlinkSync(path.join(main, 'node_modules'), path.join(worktree, 'node_modules'));
    expect(npmPackagesStale(worktree)).toBe(false);
  });
});
