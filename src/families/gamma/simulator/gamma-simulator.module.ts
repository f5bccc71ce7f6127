import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_API_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { GammaEmulator } from '../emulator/gamma-emulator';
import { GammaSimulatorController } from './gamma-simulator.controller';

/**
 * The embedded simulator of the family C provider (mounted with SIMULATOR=on): the family's emulator
 * on the clock's timeline, its state in the gateway's database, so the whole verification flow works
 * in a browser with no network.
 */
@Module({
  imports: [SimulatorStateModule],
  controllers: [GammaSimulatorController],
  providers: [
    {
      provide: GammaEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new GammaEmulator({
          apiKey: SIMULATOR_API_KEY,
          accessKey: SIMULATOR_ACCESS_KEY,
          secretKey: SIMULATOR_SECRET_KEY,
          records,
          now: () => clock.now(),
          video: { file: SAMPLE_VIDEO_PATH },
          timeline: 'clock',
        }),
    },
  ],
})
export class GammaSimulatorModule {}
