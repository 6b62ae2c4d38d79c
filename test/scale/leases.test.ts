/**
 * Leases on PostgreSQL: of several processes wanting one, exactly one runs its work; when that one closes, or is
 * killed with SIGKILL, another takes it over within a try interval.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createLeases, type Leases } from '../../src/core/store/leases.js';
import { TEST_DATABASE_URL } from '../core/store/engine.js';

const CHECK_MS = 200;
let open: Leases[] = [];
let children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
  await Promise.all(open.map((leases) => leases.close()));
  open = [];
});

const until = async (check: () => boolean, ms = 10_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('until: not in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A process's leases and what its work did. */
function replica(name: string, lease: string, log: string[]) {
  const leases = createLeases({ url: TEST_DATABASE_URL }, { checkMs: CHECK_MS });
  open.push(leases);
  leases.hold(lease, {
    start: () => void log.push(`${name} start`),
    stop: () => void log.push(`${name} stop`),
  });
  return leases;
}

describe('leases on PostgreSQL', () => {
  it('runs the work in exactly one of three replicas, and moves it when that one closes', async () => {
    const lease = `test ${Math.random()}`;
    const log: string[] = [];
    const replicas = ['a', 'b', 'c'].map((name) => replica(name, lease, log));
    await until(() => log.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 3 * CHECK_MS));
    expect(log).toHaveLength(1);
    const first = replicas.find((r) => r.held().length > 0);
    expect(replicas.filter((r) => r.held().length > 0)).toHaveLength(1);

    await first?.close();
    await until(() => log.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 3 * CHECK_MS));
    expect(log.filter((line) => line.endsWith('start'))).toHaveLength(2);
    expect(log[1]).toMatch(/ stop$/);
    expect(replicas.filter((r) => r.held().length > 0)).toHaveLength(1);
  });

  it('is taken over when the process holding it is killed', async () => {
    const lease = `test ${Math.random()}`;
    // A process that holds the lease and says so, then does nothing more until it is killed.
    const script = `
      import { createLeases } from './src/core/store/leases.ts';
      const leases = createLeases({ url: process.env.URL }, { checkMs: 100 });
      leases.hold(process.env.LEASE, { start: () => console.log('holding'), stop: () => {} });
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, URL: TEST_DATABASE_URL, LEASE: lease },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('holding')) resolve();
      });
      child.once('exit', () => reject(new Error('the child ended before holding the lease')));
    });

    const log: string[] = [];
    const here = replica('here', lease, log);
    await new Promise((resolve) => setTimeout(resolve, 3 * CHECK_MS));
    expect(here.held()).toEqual([]);

    child.kill('SIGKILL');
    const killedAt = Date.now();
    await until(() => here.held().length > 0);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(log).toEqual(['here start']);
  });

  it('is given up by a replica whose work cannot start there, for another to take', async () => {
    const lease = `test ${Math.random()}`;
    const log: string[] = [];
    const failing = createLeases({ url: TEST_DATABASE_URL }, { checkMs: CHECK_MS });
    open.push(failing);
    let tries = 0;
    failing.hold(lease, {
      start: () => {
        tries += 1;
        throw new Error('refused here');
      },
      stop: () => void log.push('failing stop'),
    });
    await until(() => tries > 0);
    const other = replica('other', lease, log);
    await until(() => other.held().length > 0);
    expect(failing.held()).toEqual([]);
    expect(log).toContain('other start');
  });
});
