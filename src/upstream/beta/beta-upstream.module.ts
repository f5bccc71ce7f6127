import { Module } from '@nestjs/common';

/** Family beta: its upstream adapter, registered with UpstreamAdapterRegistry at start. */
@Module({})
export class BetaUpstreamModule {}
