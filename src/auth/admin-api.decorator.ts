import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from './admin.guard';

/** A controller of the admin API at `path`: behind AdminGuard, documented under `admin` with the admin token. */
export function AdminApi(path: string): ClassDecorator {
  return applyDecorators(ApiTags('admin'), ApiBearerAuth('admin'), UseGuards(AdminGuard), Controller(path));
}
