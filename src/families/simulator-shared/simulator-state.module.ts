import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SimulatorRecordEntity } from './simulator-record.entity';
import { SimulatorRecords } from './simulator-records.service';

/** What every family's simulator imports to keep its state in the gateway's database. */
@Module({
  imports: [TypeOrmModule.forFeature([SimulatorRecordEntity])],
  providers: [SimulatorRecords],
  exports: [SimulatorRecords],
})
export class SimulatorStateModule {}
