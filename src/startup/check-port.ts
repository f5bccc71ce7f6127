import { createServer } from 'node:net';
import type { AppConfig } from '../config/app-config';

/** The one line naming PORT for a listen error the operator can act on; null for any other error. */
export function portProblem(port: number, error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return `PORT: ${port} is already in use (another gateway instance or program listens on it); set PORT to a free one`;
  if (code === 'EACCES') return `PORT: ${port} may not be listened on by this user (ports below 1024 need privileges); set PORT to another`;
  return null;
}

/**
 * Before the start: the port is listened on once and let go, so that a busy one stops the start in one
 * line naming PORT, before Nest and the modules have loaded (a program taking it in between is still
 * said in that line, by main's listen). Answers that line, or null when the port is free (or is 0).
 */
export async function checkPort(config: AppConfig): Promise<string | null> {
  if (config.port === 0) return null;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, resolve);
    });
  } catch (error) {
    return portProblem(config.port, error);
  }
  await new Promise((resolve) => server.close(resolve));
  return null;
}
