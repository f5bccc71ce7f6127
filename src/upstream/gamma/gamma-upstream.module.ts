import { Module } from '@nestjs/common';

/** Family gamma: its upstream adapter, registered with UpstreamAdapterRegistry at start. */
@Module({})
export class GammaUpstreamModule {}
