import type { ServerSecret } from '../database/server-secret.service';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secret-box';

const boxWith = (key: number) =>
  new WebhookSecretBox({ derive: () => Buffer.alloc(32, key), deriveAll: () => [Buffer.alloc(32, key)] } as unknown as ServerSecret);

describe('WebhookSecretBox', () => {
  it('opens what it sealed; the stored form does not contain the secret', () => {
    const secret = newWebhookSecret();
    const sealed = boxWith(1).seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(boxWith(1).open(sealed)).toBe(secret);
  });

  it('refuses a sealed secret under another key or altered', () => {
    const sealed = boxWith(1).seal(newWebhookSecret());
    expect(() => boxWith(2).open(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => boxWith(1).open(`v1:${raw.toString('base64')}`)).toThrow();
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
