import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { timeUntil } from './own-redis';

const BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** A throwaway PostgreSQL server of a test's own (never the machine's, which others share), which the test may freeze. */
export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** SIGSTOPs the server and every backend: connections stay open, nothing answers (a hung server). */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

/** Whether this machine can run one (the binaries are there; as root, the `postgres` account runs it). */
export const canRunOwnPostgres = (): boolean =>
  spawnSync(join(BIN, 'initdb'), ['--version']).status === 0 &&
  (process.getuid?.() !== 0 || spawnSync('id', ['-u', 'postgres']).status === 0);

/** As the `postgres` account when the tests run as root (PostgreSQL refuses to run as root). */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export async function startOwnPostgres(port: number): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-own-postgres-'));
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout);
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout);
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const [initdb, initArgs] = asServerUser(join(BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const [postgres, args] = asServerUser(join(BIN, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ]);
  const child: ChildProcess = spawn(postgres, args, { stdio: 'ignore' });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await timeUntil(
    async () => {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.end();
        return true;
      } catch {
        return false;
      }
    },
    // initdb and the first start share two cores with the rest of the suite: wait for the server, not for a time.
    90_000,
    'own postgres accepting connections',
  );
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  /** The server's processes: the postmaster first (so it forks no more), then its backends. */
  const processes = (): number[] => [postmaster, ...childrenOf(postmaster)];
  const signal = (name: NodeJS.Signals) => {
    for (const pid of processes()) {
      try {
        process.kill(pid, name);
      } catch {
        /* gone meanwhile */
      }
    }
  };
  return {
    url,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    stop: async () => {
      signal('SIGCONT');
      // Immediate shutdown: a throwaway server keeps nothing.
      signal('SIGQUIT');
      await timeUntil(async () => !running(postmaster), 20_000, 'own postgres stopped');
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether `pid` is alive (a zombie waiting for its parent counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The processes whose parent is `pid` (PostgreSQL's backends and workers), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command may hold spaces and parentheses: the fields after the last ')' are state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return children;
}
