import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { INSTANCE_ID, newInstanceId } from './instance-id';
import { TaskEntity } from './task.entity';
import { TaskRepository } from './task.repository';
import { TaskSubmitService } from './task-submit.service';
import { TaskSyncService } from './task-sync.service';
import { TaskTransitionsService } from './task-transitions.service';

/** The task record both API surfaces share, its state machine, submit and sync. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TaskEntity])],
  providers: [{ provide: INSTANCE_ID, useFactory: newInstanceId }, TaskRepository, TaskTransitionsService, TaskSubmitService, TaskSyncService],
  exports: [INSTANCE_ID, TaskRepository, TaskTransitionsService, TaskSubmitService, TaskSyncService],
})
export class TasksModule {}
