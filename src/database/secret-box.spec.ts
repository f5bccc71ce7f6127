import { SecretBox, UnreadableSecretError } from './secret-box';
import type { ServerSecret } from './server-secret.service';

/** A server secret whose keys for every purpose are these bytes, current first. */
const secretWith = (...keys: number[]) =>
  ({ derive: () => Buffer.alloc(32, keys[0]), deriveAll: () => keys.map((key) => Buffer.alloc(32, key)) }) as unknown as ServerSecret;
const boxWith = (...keys: number[]) => new SecretBox(secretWith(...keys), 'test', 'enc:v1:');

describe('SecretBox', () => {
  it('seals with the current key behind its prefix and opens what it sealed', () => {
    const sealed = boxWith(1).seal('sk-live-provider-key');
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('sk-live');
    expect(boxWith(1).open(sealed)).toBe('sk-live-provider-key');
    expect(boxWith(1).needsReseal(sealed)).toBe(false);
  });

  it('recognises a legacy plain value, which needs sealing', () => {
    expect(boxWith(1).isSealed('sk-plain')).toBe(false);
    expect(boxWith(1).needsReseal('sk-plain')).toBe(true);
  });

  it('after a rotation, opens values sealed with the previous key and says they need sealing again', () => {
    const old = boxWith(1).seal('sk-old');
    expect(boxWith(2, 1).open(old)).toBe('sk-old');
    expect(boxWith(2, 1).needsReseal(old)).toBe(true);
  });

  it('refuses a value no configured key opens, or one altered', () => {
    const sealed = boxWith(1).seal('sk-x');
    expect(() => boxWith(2).open(sealed)).toThrow(UnreadableSecretError);
    expect(() => boxWith(2).needsReseal(sealed)).toThrow(UnreadableSecretError);
    const raw = Buffer.from(sealed.slice('enc:v1:'.length), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => boxWith(1).open(`enc:v1:${raw.toString('base64')}`)).toThrow(UnreadableSecretError);
  });
});
