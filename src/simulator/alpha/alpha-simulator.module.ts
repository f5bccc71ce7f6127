import { Module } from '@nestjs/common';

/** The embedded simulator of the family alpha upstream protocol (mounted with SIMULATOR=on). */
@Module({})
export class AlphaSimulatorModule {}
