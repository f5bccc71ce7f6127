import { Module } from '@nestjs/common';
import { GammaControlPlaneController } from './gamma-control-plane.controller';
import { GammaDataPlaneController } from './gamma-data-plane.controller';
import { GammaH5Controller } from './gamma-h5.controller';
import { GammaSimulatorStore } from './gamma-simulator.store';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';

/**
 * The embedded simulator of the family gamma provider (mounted with SIMULATOR=on): the data plane
 * under /simulator/gamma, the signed control plane under /simulator/gamma-control and its
 * liveness H5 page, so the whole verification flow works in a browser with no network.
 */
@Module({
  imports: [SimulatorStateModule],
  controllers: [GammaDataPlaneController, GammaH5Controller, GammaControlPlaneController],
  providers: [GammaSimulatorStore],
})
export class GammaSimulatorModule {}
