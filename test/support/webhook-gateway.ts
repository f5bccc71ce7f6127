import type request from 'supertest';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './beta-emulator';
import { startGateway, TestGateway } from './gateway';
import type { DatabaseKind } from './test-databases';
import { startWebhookReceiver, WebhookReceiver } from './webhook-receiver';

/** A customer's bearer key on every request. */
export interface KeyedRequests {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

/** The body of a family A submit on /v1/videos (JSON), with `extra` fields. */
export const flatBody = (extra: object = {}) => ({
  model: 'alpha/v6',
  prompt: 'a lighthouse at dusk',
  duration: 5,
  resolution: '720P',
  ...extra,
});

/** The body of a family B submit on /v1/video/generations, with `extra` fields. */
export const unifiedBody = (extra: object = {}) => ({ model: 'beta-1.0-t2v', prompt: 'a lighthouse in a storm', size: '720P', ...extra });

/**
 * The webhook suites' set-up: fake families A and B, a gateway on them whose delivery rounds run by
 * hand (WEBHOOK_DELIVERY_INTERVAL_MS=0), and a customer with plenty of quota. Receivers started
 * through `receiver()` stop with `close()`.
 */
export interface WebhookGateway {
  gw: TestGateway;
  alpha: AlphaEmulatorServer;
  beta: BetaEmulatorServer;
  customer: { userId: number; key: string };
  as(key: string): KeyedRequests;
  /** One delivery round, as the scheduler would run it. */
  deliver(): Promise<unknown>;
  /** A receiver on loopback that `close()` stops. */
  receiver(): Promise<WebhookReceiver>;
  /** A family A task through /v1/videos (JSON, `extra` fields added) that completes (or fails) at its first poll. */
  flatTask(key: string, extra?: object, fail?: boolean): Promise<string>;
  /** A family B task through /v1/video/generations that succeeds (or fails) at its first query. */
  unifiedTask(key: string, extra?: object, fail?: boolean): Promise<string>;
  /** Runs the task sync until every task has had its poll (families A and B poll within 10 s). */
  finishTasks(): Promise<void>;
  close(): Promise<void>;
}

/** `env` adds to (or overrides) the gateway's variables, e.g. TASK_RETENTION. */
export async function startWebhookGateway(kind: DatabaseKind, env: Record<string, string> = {}): Promise<WebhookGateway> {
  const receivers: WebhookReceiver[] = [];
  const alpha = await startAlphaEmulator();
  const beta = await startBetaEmulator();
  let gw: TestGateway | undefined;
  let customer: { userId: number; key: string };
  try {
    gw = await startGateway(kind, { WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...env });
    await gw.createChannel(alphaChannelBody(alpha));
    await gw.createChannel(betaChannelBody(beta));
    customer = await gw.createCustomer({ quota: 10_000_000 });
  } catch (error) {
    await gw?.close();
    await alpha.close();
    await beta.close();
    throw error;
  }
  return webhookGateway(gw, alpha, beta, customer, receivers);
}

function webhookGateway(
  gw: TestGateway,
  alpha: AlphaEmulatorServer,
  beta: BetaEmulatorServer,
  customer: { userId: number; key: string },
  receivers: WebhookReceiver[],
): WebhookGateway {
  const as = (key: string): KeyedRequests => ({
    get: (path) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
    post: (path, body) =>
      gw.http
        .post(path)
        .set('Authorization', `Bearer ${key}`)
        .send(body ?? {}),
    delete: (path) => gw.http.delete(path).set('Authorization', `Bearer ${key}`),
  });
  return {
    gw,
    alpha,
    beta,
    customer,
    as,
    deliver: () => gw.app.get(WebhookDeliveryService).deliverDueWebhooks(),
    async receiver() {
      const started = await startWebhookReceiver();
      receivers.push(started);
      return started;
    },
    async flatTask(key, extra = {}, fail = false) {
      alpha.scriptNext([fail ? 8 : 1]);
      const res = await as(key).post('/v1/videos', flatBody(extra));
      expect(res.status).toBe(200);
      return res.body.id as string;
    },
    async unifiedTask(key, extra = {}, fail = false) {
      beta.scriptNext([fail ? { status: 'FAILED', code: 'InternalError' } : 'SUCCEEDED']);
      const res = await as(key).post('/v1/video/generations', unifiedBody(extra));
      expect(res.status).toBe(200);
      return res.body.id as string;
    },
    async finishTasks() {
      gw.clock.advance(10_000);
      await gw.sync();
    },
    async close() {
      await gw.close();
      await alpha.close();
      await beta.close();
      for (const started of receivers) await started.stop();
    },
  };
}
