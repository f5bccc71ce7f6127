import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/** Sends the spans still buffered when the app shuts down (a SIGTERM would otherwise drop up to one batch). */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

@Module({ providers: [TracingShutdown] })
export class TelemetryModule {}
