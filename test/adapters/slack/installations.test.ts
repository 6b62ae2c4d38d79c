/** The sealed installation store Bolt's InstallProvider is given: keyed by workspace or org, bound to its id. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackInstallations, installationId } from '../../../src/adapters/slack/installations.js';
import { createInstallationVault } from '../../../src/core/chat/installations.js';
import { type Clock, createManualClock, systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';
import { openStore, type Store } from '../../../src/core/store/index.js';
import { createSealer } from '../../../src/core/tenancy/index.js';

const sealer = createSealer('installations-test-secret-0123456789abcdef');
const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function setUp(clock: Clock = systemClock) {
  const store = await openStore({ path: ':memory:' });
  stores.push(store);
  const secrets = new Set<string>();
  const installations = createSlackInstallations({
    vault: createInstallationVault(store, sealer),
    clock,
    logger: createLogger({ level: 'silent' }),
    secrets,
  });
  return { store, secrets, installations };
}

const workspaceInstall = {
  team: { id: 'T1', name: 'One' },
  enterprise: undefined,
  user: { id: 'U1', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-one', scopes: ['commands'], id: 'B1', userId: 'UB1' },
  isEnterpriseInstall: false,
  authVersion: 'v2' as const,
};

const orgInstall = {
  team: undefined,
  enterprise: { id: 'E1', name: 'Org' },
  user: { id: 'U2', token: undefined, scopes: undefined },
  bot: { token: 'xoxb-org', scopes: ['commands'], id: 'B2', userId: 'UB2' },
  isEnterpriseInstall: true,
  authVersion: 'v2' as const,
};

describe('Slack installations', () => {
  it('keeps a workspace install under its team and an org-wide install under its org, sealed', async () => {
    const { store, secrets, installations } = await setUp();
    await installations.storeInstallation(workspaceInstall);
    await installations.storeInstallation(orgInstall);
    expect(installationId(orgInstall)).toBe('E1');
    expect(await store.tenants.slackInstallation('T1')).toMatch(/^v1:/);
    expect(await store.tenants.slackInstallation('T1')).not.toContain('xoxb-one');
    expect([...secrets]).toEqual(['xoxb-one', 'xoxb-org']);
    const fetched = await installations.fetchInstallation({
      teamId: 'T1',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(fetched.bot?.token).toBe('xoxb-one');
    const org = await installations.fetchInstallation({
      enterpriseId: 'E1',
      teamId: undefined,
      isEnterpriseInstall: true,
    });
    expect(org.bot?.token).toBe('xoxb-org');
    expect(await installations.queryFor('E1')).toEqual({
      enterpriseId: 'E1',
      teamId: undefined,
      isEnterpriseInstall: true,
    });
    expect(await installations.queryFor('T9')).toBeNull();
  });

  it('finds nothing for an unknown workspace, and forgets a deleted one', async () => {
    const { installations } = await setUp();
    await installations.storeInstallation(workspaceInstall);
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false as const };
    await expect(installations.fetchInstallation({ ...query, teamId: 'T2' })).rejects.toThrow(
      /No Slack installation/,
    );
    await installations.deleteInstallation(query);
    expect(await installations.has('T1')).toBe(false);
    await expect(installations.fetchInstallation(query)).rejects.toThrow(/No Slack installation/);
  });

  it('does not open a sealed installation copied under another workspace', async () => {
    const { store, installations } = await setUp();
    await installations.storeInstallation(workspaceInstall);
    await store.tenants.putSlackInstallation(
      'T2',
      (await store.tenants.slackInstallation('T1')) as string,
      new Date(),
    );
    await expect(
      installations.fetchInstallation({ teamId: 'T2', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/could not be decrypted/);
  });

  it('keeps when a workspace installed Scout across token refreshes; a reinstall takes its own time', async () => {
    const clock = createManualClock('2025-03-01T10:00:00Z');
    const { installations } = await setUp(clock);
    expect(await installations.installedAt('T1')).toBeNull();
    await installations.storeInstallation(workspaceInstall);
    expect(await installations.installedAt('T1')).toEqual(new Date('2025-03-01T10:00:00Z'));
    // A token refresh stores the installation Bolt fetched, with new tokens.
    clock.advance(3_600_000);
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false as const };
    const fetched = await installations.fetchInstallation(query);
    await installations.storeInstallation({
      ...fetched,
      bot: { ...workspaceInstall.bot, token: 'xoxb-new' },
    });
    expect(await installations.installedAt('T1')).toEqual(new Date('2025-03-01T10:00:00Z'));
    expect((await installations.fetchInstallation(query)).bot?.token).toBe('xoxb-new');
    // Installing through OAuth again makes a new installation.
    await installations.storeInstallation(workspaceInstall);
    expect(await installations.installedAt('T1')).toEqual(new Date('2025-03-01T11:00:00Z'));
  });
});
