import { Module } from '@nestjs/common';
import { VideosModule } from '../videos/videos.module';
import { AuthModule } from '../auth/auth.module';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { GenerationsController } from './generations.controller';

/** /v1/video/generations: renders the unified form; submits go through the tasks' SubmitPipeline. */
@Module({
  imports: [AuthModule, TasksModule, StorageModule, VideosModule],
  controllers: [GenerationsController],
})
export class GenerationsModule {}
