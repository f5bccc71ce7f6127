import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { hashPassword } from '../auth/password';
import { randomBase62 } from '../common/random-id';
import { UsersService } from '../auth/users.service';
import { LedgerService } from '../billing/ledger.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FAMILIES } from '../families/family.registry';
import { ChannelsService } from '../upstream/channels.service';
import { SIMULATOR_API_KEY } from '../families/simulator-shared/simulator-credentials';

const DEMO_QUOTA = 1_000_000;

/**
 * With SIMULATOR=on and an empty database: one channel per family pointing at the embedded
 * simulator, and a demo user whose API key is printed once. Runs after the server listens,
 * because the channels need the real port.
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

  async seed(port: number): Promise<void> {
    if (!this.config.simulator) return;
    if ((await this.channels.count()) === 0) {
      const root = `http://127.0.0.1:${port}/simulator`;
      for (const family of FAMILIES.filter((candidate) => candidate.simulator)) {
        await this.channels.create(
          {
            name: `simulator-${family.platform}`,
            platform: family.platform,
            baseUrl: `${root}/${family.platform}`,
            apiKey: SIMULATOR_API_KEY,
            models: [...family.models],
            settings: { ...family.simulator!.channelSettings?.(root), poll_interval_ms: 2000 },
          },
          true,
        );
      }
      this.logger.log(`created simulator channels at ${root}`);
    }
    if ((await this.users.count()) === 0) {
      const password = randomBase62(16);
      const user = await this.users.create({ username: 'demo', passwordHash: await hashPassword(password) });
      await this.ledger.topUp(user.id, DEMO_QUOTA, 'demo balance');
      await this.users.update(user.id, { verificationEnabled: true });
      const { key } = await this.keys.issue(user.id, 'demo');
      // Printed once, on purpose: the key is stored only as a hash.
      this.logger.warn(`Demo user "demo" with ${DEMO_QUOTA} quota; API key (shown once): ${key}; console password: ${password}`);
    }
  }
}
