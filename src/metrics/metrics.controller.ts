import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MetricsRegistry } from './metrics-registry';

/** Prometheus scrape endpoint. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
