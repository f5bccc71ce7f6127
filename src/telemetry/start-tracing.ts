// Loaded by main.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set: without it, not one SDK module is required.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config/app-config';
import { tracingStarted } from './tracing';

/**
 * Starts the OpenTelemetry SDK before Nest boots: spans batched and sent as OTLP/HTTP JSON to
 * `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` (the exporter reads the standard OTEL_EXPORTER_OTLP_*
 * variables itself: headers, timeout, a traces-only endpoint), W3C `traceparent` read from clients,
 * and the context carried across awaits (AsyncLocalStorage).
 */
export function startTracing(config: TracingConfig): void {
  const resource = detectResources({ detectors: [envDetector] }).merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  tracingStarted(() => provider.shutdown());
}
