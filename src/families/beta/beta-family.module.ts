import { Module, OnModuleInit } from '@nestjs/common';
import { UpstreamAdapterRegistry } from '../../upstream/upstream-adapter.registry';
import { BetaUpstreamAdapter } from './beta-upstream.adapter';

/** Family beta: its upstream adapter, registered with UpstreamAdapterRegistry at start. */
@Module({
  providers: [BetaUpstreamAdapter],
  exports: [BetaUpstreamAdapter],
})
export class BetaUpstreamModule implements OnModuleInit {
  constructor(
    private readonly registry: UpstreamAdapterRegistry,
    private readonly adapter: BetaUpstreamAdapter,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.adapter);
  }
}
