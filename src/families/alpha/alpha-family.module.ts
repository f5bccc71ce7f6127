import { Module, OnModuleInit } from '@nestjs/common';
import { UpstreamAdapterRegistry } from '../../upstream/upstream-adapter.registry';
import { AlphaApiClient } from './alpha-api.client';
import { AlphaImageInputs } from './alpha-image-inputs.service';
import { AlphaUpstreamAdapter } from './alpha-upstream.adapter';

/** Family alpha: its upstream adapter, registered with UpstreamAdapterRegistry at start. */
@Module({
  providers: [AlphaApiClient, AlphaImageInputs, AlphaUpstreamAdapter],
  exports: [AlphaApiClient, AlphaImageInputs, AlphaUpstreamAdapter],
})
export class AlphaUpstreamModule implements OnModuleInit {
  constructor(
    private readonly registry: UpstreamAdapterRegistry,
    private readonly adapter: AlphaUpstreamAdapter,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.adapter);
  }
}
