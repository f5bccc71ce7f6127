import { Module } from '@nestjs/common';
import { AdminChannelsController } from './admin-channels.controller';
import { AdminKeysController } from './admin-keys.controller';
import { AdminLogsController } from './admin-logs.controller';
import { AdminPricesController } from './admin-prices.controller';
import { AdminTasksController } from './admin-tasks.controller';
import { AdminUsersController } from './admin-users.controller';

/** The admin API (and, later, the web console served at /console). */
@Module({
  controllers: [
    AdminUsersController,
    AdminKeysController,
    AdminChannelsController,
    AdminLogsController,
    AdminTasksController,
    AdminPricesController,
  ],
})
export class ConsoleModule {}
