import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expectOneLine, runToExit } from './support/gateway-process';

/** A video store the gateway cannot write stops the start in one line naming VIDEO_STORE. */
describe('a video store that cannot be written', () => {
  const dirs: string[] = [];
  const sqlite = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-startup-'));
    dirs.push(dir);
    return `sqlite:${join(dir, 'gateway.sqlite')}`;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('S3 without a region or credentials', async () => {
    // Nothing of this machine's AWS set-up may help the SDK find a region or credentials.
    const env: Record<string, string> = {
      DATABASE_URL: sqlite(),
      VIDEO_STORE: 's3://gateway-videos',
      SIMULATOR: 'off',
      AWS_CONFIG_FILE: '/nonexistent',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    // (Node 20 only: the SDK's notice that its 2027 versions need Node 22 is not this start's failure.)
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_') && !(name in env)) env[name] = '';
    const { code, output } = await runToExit(env);
    expectOneLine(code, output, /^VIDEO_STORE: cannot write to s3:\/\/gateway-videos: .*AWS_REGION/);
  }, 180_000);

  it('a directory under a file', async () => {
    const database = sqlite();
    const blocker = join(dirs[dirs.length - 1], 'not-a-directory');
    writeFileSync(blocker, 'x');
    const { code, output } = await runToExit({ DATABASE_URL: database, VIDEO_STORE: `file:${blocker}/videos`, SIMULATOR: 'off' });
    expectOneLine(code, output, new RegExp(`^VIDEO_STORE: cannot write to file:${blocker}/videos: ENOTDIR`));
  }, 180_000);
});

/** A port another program (or instance) holds stops the start in one line naming PORT, no stack trace. */
describe('a busy port', () => {
  it('names PORT in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-startup-'));
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, output } = await runToExit({
        DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
        PORT: String(port),
        SIMULATOR: 'off',
      });
      expectOneLine(code, output, new RegExp(`^PORT: ${port} is already in use`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
