import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SimulatorRecordEntity } from './simulator-record.entity';
import { SimulatorRecordRepository } from './simulator-record.repository';
import { SimulatorRecords } from './simulator-records.service';

/** What every family's simulator imports to keep its state in the gateway's database. */
@Module({
  imports: [TypeOrmModule.forFeature([SimulatorRecordEntity])],
  providers: [SimulatorRecordRepository, SimulatorRecords],
  exports: [SimulatorRecords],
})
export class SimulatorStateModule {}
