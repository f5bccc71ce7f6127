import { HttpService } from '@nestjs/axios';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTaskSpan, stopTracing, tracingStarted } from '../telemetry/tracing';
import { traceProviderCalls } from './provider-call-spans';

/** The interceptors a client has (axios keeps them in `handlers`, a removed one as null). */
const interceptorsOf = (http: HttpService) =>
  (http.axiosRef.interceptors.request as unknown as { handlers: unknown[] }).handlers.filter(Boolean).length;

describe('provider call spans', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) =>
      res.writeHead(req.url?.startsWith('/broken') ? 502 : 200, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('off (no SDK started): the client gets no interceptor and a task span is just the work', async () => {
    const http = new HttpService();
    traceProviderCalls(http.axiosRef);
    expect(interceptorsOf(http)).toBe(0);
    await expect(inTaskSpan('task.poll', 'task_1', () => Promise.resolve('polled'))).resolves.toBe('polled');
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  describe('on', () => {
    const exporter = new InMemorySpanExporter();
    const http = new HttpService();

    beforeAll(() => {
      const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      provider.register();
      tracingStarted(() => provider.shutdown());
      traceProviderCalls(http.axiosRef);
    });
    afterAll(async () => {
      await stopTracing();
      trace.disable();
      context.disable();
      propagation.disable();
    });
    beforeEach(() => exporter.reset());

    it("a call is a client span under the task's span, with its URL but neither its query nor any credential", async () => {
      const outcome = await inTaskSpan('task.poll', 'task_1', async () => {
        const url = `${base.replace('://', '://user:basic-secret@')}/v1/tasks/abc?key=query-secret`;
        await http.axiosRef.get(url, { headers: { Authorization: 'Bearer header-secret' } });
        return 'polled';
      });
      expect(outcome).toBe('polled');
      const [call, poll] = exporter.getFinishedSpans();
      expect(poll.name).toBe('task.poll');
      expect(poll.attributes).toEqual({ 'gateway.task_id': 'task_1', 'gateway.outcome': 'polled' });
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(call.parentSpanContext?.spanId).toBe(poll.spanContext().spanId);
      expect(call.attributes).toEqual({
        'http.request.method': 'GET',
        'server.address': '127.0.0.1',
        'url.full': `${base}/v1/tasks/abc`,
        'http.response.status_code': 200,
      });
      expect(JSON.stringify([call.name, call.attributes, call.events])).not.toMatch(/secret/);
    });

    it("a provider's 5xx and a failed task step are errors on their spans; the step's error is still thrown", async () => {
      const failing = inTaskSpan('video.archive', 'task_2', async () => {
        await http.axiosRef.get(`${base}/broken`, { validateStatus: () => true });
        await http.axiosRef.get('http://127.0.0.1:1/refused');
      });
      await expect(failing).rejects.toThrow();
      const [broken, refused, archive] = exporter.getFinishedSpans();
      expect(broken.attributes['http.response.status_code']).toBe(502);
      expect(broken.status.code).toBe(SpanStatusCode.ERROR);
      expect(refused.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ECONNREFUSED' });
      expect(archive.status.code).toBe(SpanStatusCode.ERROR);
      expect(archive.attributes['gateway.task_id']).toBe('task_2');
    });
  });
});
