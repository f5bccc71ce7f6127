import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { hashPassword } from '../auth/password';
import { randomBase62 } from '../common/runtime/random-id';
import { UsersService } from '../auth/users.service';
import { LedgerService } from '../billing/ledger.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FAMILIES } from '../families/family-registry';
import type { FamilyDefinition } from '../families/family';
import { ChannelsService } from '../upstream/channels.service';
import type { ChannelEntity } from '../upstream/channel.entity';
import { SIMULATOR_API_KEY } from '../families/simulator-shared/simulator-credentials';

export const DEMO_QUOTA = 1_000_000;

/** The demo user's secrets, created once on an empty database (only their hashes are stored). */
export interface DemoCredentials {
  username: string;
  apiKey: string;
  password: string;
  quota: number;
}

export interface SeedResult {
  /** Where the simulator channels point (null with SIMULATOR=off). */
  root: string | null;
  /** The platforms whose seeded channel was created or repointed on this start. */
  repointed: string[];
  demo: DemoCredentials | null;
}

const SIMULATED = FAMILIES.filter((family) => family.simulator);

/**
 * With SIMULATOR=on: one channel per family pointing at the embedded simulator when the database
 * has no channel, and on every start the seeded channels follow the gateway's current address (a
 * restart on another port must not leave them pointing at the old one). A demo user is created on
 * an empty database; its key and password are handed back once, for the start-up banner. Runs
 * after the server listens, because the channels need the real port.
 */
@Injectable()
export class SimulatorSeeder {
  private readonly logger = new Logger('Simulator');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly channels: ChannelsService,
    private readonly users: UsersService,
    private readonly keys: ApiKeysService,
    private readonly ledger: LedgerService,
  ) {}

  async seed(port: number): Promise<SeedResult> {
    if (!this.config.simulator) return { root: null, repointed: [], demo: null };
    // The gateway reaches its own simulator on loopback, whatever PUBLIC_BASE_URL says.
    const root = `http://127.0.0.1:${port}/simulator`;
    const repointed = (await this.channels.count()) === 0 ? await this.createChannels(root) : await this.repointChannels(root);
    if (repointed.length > 0) this.logger.debug(`simulator channels of ${repointed.join(', ')} point at ${root}`);
    return { root, repointed, demo: await this.createDemoUser() };
  }

  private async createChannels(root: string): Promise<string[]> {
    for (const family of SIMULATED) {
      await this.channels.create(
        {
          name: `simulator-${family.platform}`,
          platform: family.platform,
          baseUrl: `${root}/${family.platform}`,
          apiKey: family.simulator!.apiKey ?? SIMULATOR_API_KEY,
          models: [...family.models],
          settings: { ...family.simulator!.channelSettings?.(root), poll_interval_ms: 2000 },
        },
        true,
      );
    }
    return SIMULATED.map((family) => family.platform);
  }

  /** The channels this seeder made (its name, a simulator path) that point elsewhere now; an operator's own channels are left alone. */
  private async repointChannels(root: string): Promise<string[]> {
    const repointed: string[] = [];
    for (const channel of await this.channels.list()) {
      const family = SIMULATED.find((candidate) => isSeededChannel(channel, candidate));
      const baseUrl = `${root}/${channel.platform}`;
      if (!family) continue;
      // The URL settings the simulator gave the channel (family C's control plane) move with it.
      const moved = Object.fromEntries(
        Object.entries(family.simulator!.channelSettings?.(root) ?? {}).filter(
          ([name, value]) =>
            family.settings.some((setting) => setting.name === name && setting.type === 'url') && channel.settings?.[name] !== value,
        ),
      );
      const settingsMoved = Object.keys(moved).length > 0;
      if (channel.baseUrl === baseUrl && !settingsMoved) continue;
      await this.channels.update(channel.id, { baseUrl, ...(settingsMoved ? { settings: moved } : {}) }, true);
      repointed.push(channel.platform);
    }
    return repointed;
  }

  private async createDemoUser(): Promise<DemoCredentials | null> {
    if ((await this.users.count()) > 0) return null;
    const password = randomBase62(16);
    const user = await this.users.create({ username: 'demo', passwordHash: await hashPassword(password) });
    await this.ledger.topUp(user.id, DEMO_QUOTA, 'demo balance');
    await this.users.update(user.id, { verificationEnabled: true });
    const { key } = await this.keys.issue(user.id, 'demo');
    return { username: 'demo', apiKey: key, password, quota: DEMO_QUOTA };
  }
}

/** A channel the seeder created: its name and a base URL on some `/simulator/<platform>` path. */
function isSeededChannel(channel: ChannelEntity, family: FamilyDefinition): boolean {
  if (channel.platform !== family.platform || channel.name !== `simulator-${family.platform}`) return false;
  try {
    return new URL(channel.baseUrl).pathname === `/simulator/${family.platform}`;
  } catch {
    return false;
  }
}
