import { LoopbackServer, sendJson, startLoopbackServer } from './http-server';

/** One span as an OTLP/HTTP JSON export carries it, its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  serviceName: string;
}

export interface OtlpReceiver {
  url: string;
  /** Every POST /v1/traces body, as received. */
  exports: string[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
const valueOf = (value: AnyValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''));
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** A collector's OTLP/HTTP endpoint on loopback: takes POST /v1/traces (JSON) and keeps every span. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const server: LoopbackServer = await startLoopbackServer((req, res) => sendJson(res, req.path === '/v1/traces' ? 200 : 404, {}));
  const exports = () => server.requests.filter((req) => req.method === 'POST' && req.path === '/v1/traces');
  return {
    url: server.url,
    get exports() {
      return exports().map((req) => req.body.toString('utf8'));
    },
    spans: () =>
      exports().flatMap((req) =>
        ((req.json as any)?.resourceSpans ?? []).flatMap((resource: any) => {
          const serviceName = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
          return (resource.scopeSpans ?? []).flatMap((scope: any) =>
            (scope.spans ?? []).map((span: any) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              serviceName,
            })),
          );
        }),
      ),
    close: () => server.close(),
  };
}
