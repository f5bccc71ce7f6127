import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Starts one of the bench servers (a file in bench/ that prints `listening <port>`) in its own process, with `env` added to its environment. */
export async function startBenchServer(
  file: string,
  env: Record<string, string> = {},
): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, file)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.on('data', (chunk) => {
      const match = /listening (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    }),
  );
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

/** Starts the lean family A upstream (bench/alpha-upstream-server.ts) in its own process. */
export const startBenchUpstream = () => startBenchServer('alpha-upstream-server.ts');
