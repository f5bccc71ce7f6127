import { Module, OnModuleInit } from '@nestjs/common';
import { UpstreamAdapterRegistry } from '../../upstream/upstream-adapter.registry';
import { GammaControlClient } from '../../verification/control-plane/gamma-control.client';
import { GammaUpstreamAdapter } from './gamma-upstream.adapter';

/**
 * Family gamma: the data plane adapter (registered with UpstreamAdapterRegistry at start) and
 * the signed control plane client the verification module uses.
 */
@Module({
  providers: [GammaUpstreamAdapter, GammaControlClient],
  exports: [GammaUpstreamAdapter, GammaControlClient],
})
export class GammaUpstreamModule implements OnModuleInit {
  constructor(
    private readonly registry: UpstreamAdapterRegistry,
    private readonly adapter: GammaUpstreamAdapter,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.adapter);
  }
}
