import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { hashPassword } from '../auth/password';
import { randomBase62 } from '../common/random-id';
import { UsersService } from '../auth/users.service';
import { LedgerService } from '../billing/ledger.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Platform } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';

/** Public models each simulated family serves. */
export const SIMULATED_MODELS: Record<Platform, string[]> = {
  alpha: ['alpha/c1', 'alpha/v6', 'alpha/v5.6', 'alpha/v5.5', 'alpha/v5', 'alpha/v4.5', 'alpha/v4', 'alpha/v3.5'],
  beta: ['beta-1.0-t2v', 'beta-1.0-i2v', 'beta-1.0-r2v', 'beta-1.0-video-edit'],
  gamma: ['gamma-2-0', 'gamma-2-0-fast'],
};

export const SIMULATOR_API_KEY = 'simulator-key';
export const SIMULATOR_ACCESS_KEY = 'SIMULATORACCESSKEY';
export const SIMULATOR_SECRET_KEY = 'simulator-secret-key';
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
      for (const platform of Object.keys(SIMULATED_MODELS) as Platform[]) {
        await this.channels.create(
          {
            name: `simulator-${platform}`,
            platform,
            baseUrl: `${root}/${platform}`,
            apiKey: SIMULATOR_API_KEY,
            models: SIMULATED_MODELS[platform],
            settings:
              platform === 'gamma'
                ? { control_base_url: `${root}/gamma-control`, access_key: SIMULATOR_ACCESS_KEY, secret_key: SIMULATOR_SECRET_KEY, poll_interval_ms: 2000 }
                : { poll_interval_ms: 2000 },
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
