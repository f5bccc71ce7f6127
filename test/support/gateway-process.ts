import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until';

export interface GatewayProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote, for diagnostics. */
  output(): string;
  /** kill -9: no shutdown hooks, no cleanup. */
  crash(): Promise<void>;
  /** SIGTERM: graceful shutdown; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const ROOT = join(__dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * What a gateway process runs: `src/main.ts` through ts-node, so no build is needed; or, with
 * GATEWAY_PROCESS_FROM_DIST=1 (`.ci/run` sets it right after `npm run build`), the build itself,
 * which starts in about a third of the time (3 s against 10 s on two busy cores).
 */
function gatewayEntry(): string[] {
  if (process.env.GATEWAY_PROCESS_FROM_DIST === '1') return [join(ROOT, 'dist', 'main.js')];
  return ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')];
}

/**
 * Starts a real gateway process (see gatewayEntry) and waits
 * until /health answers. Used where a test needs separate processes: several instances on one
 * database, or a kill -9.
 */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, gatewayEntry(), {
    cwd: ROOT,
    env: {
      ...process.env,
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      LOG_LEVEL: 'warn',
      SIMULATOR: 'off',
      // Its own video store, never the checkout's data/videos.
      VIDEO_STORE: `file:${mkdtempSync(join(tmpdir(), 'gw-process-videos-'))}`,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const healthy = async () => {
    if (child.exitCode !== null) throw new Error(`gateway process exited early (${child.exitCode}):\n${output}`);
    // Refused: not listening yet.
    return fetch(`${url}/health`).then(
      (res) => res.ok,
      () => false,
    );
  };
  try {
    await until('the gateway process to answer /health', healthy, { timeoutMs: 60_000, everyMs: 200 });
  } catch (error) {
    if (child.exitCode !== null) throw error;
    child.kill('SIGKILL');
    throw new Error(`gateway process did not become healthy:\n${output}`, { cause: error });
  }
  return {
    url,
    port,
    child,
    output: () => output,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Runs `src/main.ts` until it exits, for starts that must fail; answers its exit code and everything
 * it wrote. The generous limit is for ts-node compiling on a busy machine, not for the gateway.
 */
export function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      gatewayEntry(),
      {
        cwd: ROOT,
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), PORT: '0', LOG_LEVEL: 'info', ...env },
        timeout: 150_000,
      },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, output: `${stdout}${stderr}`, stderr }),
    );
  });
}

/** The start ended with code 1 and one line (no stack, no retries) matching `pattern`. */
export function expectOneLine(code: number | null, output: string, pattern: RegExp): void {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  expect({ code, lines }).toEqual({ code: 1, lines: [expect.stringMatching(pattern)] });
}
