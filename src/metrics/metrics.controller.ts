import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MetricsRegistry } from './metrics-registry';
import { MetricsTokenGuard } from './metrics-token.guard';

/** Prometheus scrape endpoint (behind METRICS_TOKEN when set). */
@ApiExcludeController()
@UseGuards(MetricsTokenGuard)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
