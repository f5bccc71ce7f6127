import type { AppConfig } from '../config/app-config';
import { ServerSecret } from '../database/server-secret.service';
import { SignedLinksService } from './signed-links.service';

describe('SignedLinksService', () => {
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  const config = { serverSecret: 'x'.repeat(40), publicBaseUrl: 'https://gw.example.com', videoUrlTtlSeconds: 600 } as AppConfig;
  let links: SignedLinksService;
  const linksWith = async (secrets: Partial<AppConfig>) => {
    const settings = { get: async () => null, setIfAbsent: async (_key: string, value: string) => value };
    const secret = new ServerSecret({ ...config, ...secrets }, settings as never);
    await secret.onModuleInit();
    return new SignedLinksService(secret, clock, config);
  };

  beforeAll(async () => {
    links = await linksWith({});
  });

  const parts = (url: string) => {
    const parsed = new URL(url);
    return { path: parsed.pathname, expires: parsed.searchParams.get('expires')!, signature: parsed.searchParams.get('signature')! };
  };

  it('links to the content route with expires and a hex signature that verifies until it expires', () => {
    const link = links.contentUrl({ taskId: 'task_abc' });
    const { path, expires, signature } = parts(link);
    expect(path).toBe('/v1/videos/task_abc/content');
    expect(Number(expires)).toBe(now / 1000 + 600);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(() => links.verify('task_abc', expires, signature)).not.toThrow();
    now += 600_000;
    expect(() => links.verify('task_abc', expires, signature)).not.toThrow();
    now += 1000;
    expect(() => links.verify('task_abc', expires, signature)).toThrow('the link is invalid or has expired');
  });

  it('refuses another task, another expiry, a changed signature, and garbage', () => {
    const { expires, signature } = parts(links.contentUrl({ taskId: 'task_abc' }));
    const flipped = signature.slice(0, -1) + (signature.endsWith('a') ? 'b' : 'a');
    for (const [task, exp, sig] of [
      ['task_abd', expires, signature],
      ['task_abc', String(Number(expires) + 1), signature],
      ['task_abc', expires, flipped],
      ['task_abc', expires, signature.toUpperCase()],
      ['task_abc', undefined, signature],
      ['task_abc', expires, undefined],
      ['task_abc', ['1', '2'], signature],
      ['task_abc', '1e12', signature],
    ] as const) {
      expect(() => links.verify(task, exp, sig)).toThrow(expect.objectContaining({ status: 403 }));
    }
  });

  it('after a rotation, plays links signed with SERVER_SECRET_PREVIOUS until they expire; without it, refuses them', async () => {
    const { expires, signature } = parts(links.contentUrl({ taskId: 'task_abc' }));
    const rotated = await linksWith({ serverSecret: 'y'.repeat(40), serverSecretPrevious: config.serverSecret });
    expect(() => rotated.verify('task_abc', expires, signature)).not.toThrow();
    expect(parts(rotated.contentUrl({ taskId: 'task_abc' })).signature).not.toBe(signature);
    const forgotten = await linksWith({ serverSecret: 'y'.repeat(40) });
    expect(() => forgotten.verify('task_abc', expires, signature)).toThrow(expect.objectContaining({ status: 403 }));
  });
});
