import { FakeGammaOptions, FakeGammaUpstream, startFakeGammaUpstream } from './fake-gamma-upstream';
import { startGateway, TestGateway } from './gateway';
import type { DatabaseKind } from './test-databases';

export interface GatewayWithFakeGammaOptions {
  fake?: FakeGammaOptions;
  env?: Record<string, string>;
  /** Added to the channel's settings (e.g. another region). */
  settings?: Record<string, unknown>;
}

/**
 * The verification suites' setup: a fake family C provider whose clock (for the signature's
 * X-Date check) is the gateway's test clock, and one channel on it.
 */
export async function startGatewayWithFakeGamma(
  kind: DatabaseKind,
  options: GatewayWithFakeGammaOptions = {},
): Promise<{ gw: TestGateway; fake: FakeGammaUpstream }> {
  const fake = await startFakeGammaUpstream(options.fake);
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
