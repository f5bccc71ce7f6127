import { Module } from '@nestjs/common';
import { AlphaSimulatorController } from './alpha-simulator.controller';
import { AlphaSimulatorService } from './alpha-simulator.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';

/** The embedded simulator of the family alpha upstream protocol (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [AlphaSimulatorController],
  providers: [AlphaSimulatorService],
})
export class AlphaSimulatorModule {}
