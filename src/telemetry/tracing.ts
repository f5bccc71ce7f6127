import { Span, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';

/** The attribute that makes one task's whole life one search: its submit, polls, archive, settlement and webhook deliveries. */
export const TASK_ID_ATTRIBUTE = 'gateway.task_id';

let tracer: Tracer | null = null;
let stop: (() => Promise<void>) | null = null;

/**
 * Set by startTracing once the SDK runs. Until then every helper here is one null check: with
 * OTEL_EXPORTER_OTLP_ENDPOINT unset, no span object is made anywhere.
 */
export function tracingStarted(shutdown: () => Promise<void>): void {
  tracer = trace.getTracer('video-gateway');
  stop = shutdown;
}

/** The gateway's tracer while tracing is on, else null. */
export function activeTracer(): Tracer | null {
  return tracer;
}

/** Exports what is still buffered and stops the SDK (the app's shutdown); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const shutdown = stop;
  tracer = null;
  stop = null;
  await shutdown?.();
}

/**
 * Runs a task's piece of work in a span named `name` carrying `gateway.task_id` (none when the work is
 * about no task). A string the work resolves with (a job's outcome label) is kept as `gateway.outcome`.
 */
export function inTaskSpan<T>(name: string, taskId: string | null, work: () => Promise<T>): Promise<T> {
  if (!tracer) return work();
  return tracer.startActiveSpan(name, taskId === null ? {} : { attributes: { [TASK_ID_ATTRIBUTE]: taskId } }, async (span) => {
    try {
      const result = await work();
      if (typeof result === 'string') span.setAttribute('gateway.outcome', result);
      return result;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Names the task the current span (a submit's request span) is about. */
export function tagTask(taskId: string): void {
  if (tracer) trace.getActiveSpan()?.setAttribute(TASK_ID_ATTRIBUTE, taskId);
}

/** An error's class and message on the span (the gateway's own messages name no key or secret). */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
