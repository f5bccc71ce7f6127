import { GammaEmulatorOptions, GammaEmulatorServer, startGammaEmulator } from './gamma-emulator';
import { startGateway, TestGateway } from './gateway';
import type { DatabaseKind } from './test-databases';

export interface GatewayWithGammaEmulatorOptions {
  emulator?: GammaEmulatorOptions;
  env?: Record<string, string>;
  /** Added to the channel's settings (e.g. another region). */
  settings?: Record<string, unknown>;
}

/**
 * The verification suites' setup: the family C emulator, whose clock (for the signature's X-Date
 * check) is the gateway's test clock, and one channel on it.
 */
export async function startGatewayWithGammaEmulator(
  kind: DatabaseKind,
  options: GatewayWithGammaEmulatorOptions = {},
): Promise<{ gw: TestGateway; fake: GammaEmulatorServer }> {
  const fake = await startGammaEmulator(options.emulator);
  let gw: TestGateway | undefined;
  try {
    gw = await startGateway(kind, options.env);
    const clock = gw.clock;
    fake.now = () => clock.now();
    const body = fake.channelBody();
    await gw.createChannel(options.settings ? { ...body, settings: { ...(body.settings as object), ...options.settings } } : body);
    return { gw, fake };
  } catch (error) {
    await gw?.close();
    await fake.close();
    throw error;
  }
}
