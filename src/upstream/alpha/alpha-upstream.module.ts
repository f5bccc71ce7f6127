import { Module } from '@nestjs/common';

/** Family alpha: its upstream adapter, registered with UpstreamAdapterRegistry at start. */
@Module({})
export class AlphaUpstreamModule {}
