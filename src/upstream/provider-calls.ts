import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { traceProviderCalls } from './provider-call-spans';

/**
 * What every Bearer JSON adapter calls its provider with: the shared HTTP client, the clock (a `Retry-After` date), the config (link rules).
 * The client is the one every provider call goes through: with tracing on, each call is a span (provider-call-spans.ts).
 */
@Injectable()
export class ProviderCalls {
  constructor(
    readonly http: HttpService,
    @Inject(Clock) readonly clock: Pick<Clock, 'now'>,
    @Inject(APP_CONFIG) readonly config: AppConfig,
  ) {
    traceProviderCalls(http.axiosRef);
  }
}
