import { replicateWebhookSigned, signReplicateWebhook } from './replicate-webhook-signature';

describe("Replicate's webhook signature (Standard Webhooks)", () => {
  const secret = 'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH';
  const body = Buffer.from('{"id":"p1","status":"succeeded"}');
  const now = 1_750_000_000;
  const headersFor = (signature: string, timestamp = now, id = 'msg_1') => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('accepts its own signature, among others listed', () => {
    const signature = signReplicateWebhook(secret, 'msg_1', now, body);
    expect(replicateWebhookSigned(secret, headersFor(signature), body, now)).toBe(true);
    expect(replicateWebhookSigned(secret, headersFor(`v1,bm9wZQ== ${signature}`), body, now + 60)).toBe(true);
  });

  it.each([
    ['another body', () => [headersFor(signReplicateWebhook(secret, 'msg_1', now, body)), Buffer.from('{}')]],
    ['another secret', () => [headersFor(signReplicateWebhook('whsec_b3RoZXI=', 'msg_1', now, body)), body]],
    ['another id', () => [headersFor(signReplicateWebhook(secret, 'msg_1', now, body), now, 'msg_2'), body]],
    ['a timestamp 6 minutes old (a replay)', () => [headersFor(signReplicateWebhook(secret, 'msg_1', now - 360, body), now - 360), body]],
    ['no signature', () => [headersFor(''), body]],
  ])('refuses %s', (_, make) => {
    const [headers, sent] = make() as [Record<string, string>, Buffer];
    expect(replicateWebhookSigned(secret, headers, sent, now)).toBe(false);
  });
});
