import { Module } from '@nestjs/common';

/** The embedded simulator of the family gamma upstream protocol (mounted with SIMULATOR=on). */
@Module({})
export class GammaSimulatorModule {}
