import { Module } from '@nestjs/common';

/** The embedded simulator of the family beta upstream protocol (mounted with SIMULATOR=on). */
@Module({})
export class BetaSimulatorModule {}
