import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/gateway-process';
import { until } from './support/until';

const ROOT = join(__dirname, '..');
const SECTION = '## Walk-through with curl (simulator, no network)';

interface Block {
  lang: 'sh' | 'bash';
  code: string;
}

/** The fenced blocks of one `## ` section of the README, in order. */
function sectionBlocks(readme: string, heading: string): Block[] {
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`README has no "${heading}"`);
  const next = readme.indexOf('\n## ', start + heading.length);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```(sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] as Block['lang'], code: m[2] }));
}

/** The variables of the README's Configuration table: a newcomer sets none of them. */
function configurationVariables(readme: string): Set<string> {
  return new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));
}

/** The environment a newcomer has: none of the gateway's variables (the defaults) nor the tests', npm offline. */
function newcomerEnv(readme: string, port: number): NodeJS.ProcessEnv {
  const configured = configurationVariables(readme);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!configured.has(name) && !/^(NODE_ENV|JEST_.*|TEST_.*|AWS_.*)$/.test(name)) env[name] = value;
  }
  return { ...env, PORT: String(port), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
}

interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Runs a README start command (`npm install && npm start`) in the clone and waits until it is up and has said so. */
async function startAsTheReadmeSays(command: string, cwd: string, readme: string, port: number): Promise<Started> {
  let output = '';
  const child = spawn('bash', ['-c', command], { cwd, env: newcomerEnv(readme, port), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The first start builds the clone (about 15 s alone, longer next to other suites).
  // Healthy, and the start-up lines (printed once listening) are out.
  const up = async () => {
    if (child.exitCode !== null) throw new Error(`"${command}" exited (${child.exitCode}):\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    return healthy && output.includes(`listening on port ${port}`) && (!/Shown once/.test(output) || /^export GW=/m.test(output));
  };
  try {
    await until(`"${command}" to be up`, up, { timeoutMs: 180_000, everyMs: 250 });
  } catch (error) {
    if (child.exitCode !== null) throw error;
    process.kill(-child.pid!, 'SIGKILL');
    throw new Error(`"${command}" did not become healthy:\n${output}`, { cause: error });
  }
  return {
    child,
    output: () => output,
    stop: async () => {
      try {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* the group is gone already */
      }
      await exited;
      // bash may end before the node it started (npm passes the signal on; the gateway drains its work):
      // wait for the whole group, so nothing writes into the clone once it is removed.
      const gone = await until("the start command's processes to end", async () => !groupAlive(child.pid!), {
        timeoutMs: 20_000,
        everyMs: 100,
      }).catch(() => false);
      if (!gone && groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}

/** One bash for the whole walk-through, so the blocks share variables and functions as in a terminal. */
function persistentShell(cwd: string) {
  const shell = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { ...process.env, LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  shell.stdout.on('data', (chunk) => (out += chunk));
  shell.stderr.on('data', (chunk) => (err += chunk));
  let n = 0;
  return {
    async run(code: string, timeoutMs = 180_000): Promise<string> {
      const marker = `@@block-${++n}-done`;
      const from = out.length;
      shell.stdin.write(`${code}\necho "${marker} $?"\n`);
      const ended = () => {
        if (shell.exitCode !== null)
          throw new Error(`the shell exited (${shell.exitCode}) in:\n${code}\nstdout:\n${out.slice(from)}\nstderr:\n${err}`);
        return out.includes(marker, from);
      };
      await until('the block to end', ended, { timeoutMs }).catch((error) => {
        throw shell.exitCode !== null ? error : new Error(`block timed out:\n${code}\nstdout:\n${out.slice(from)}\nstderr:\n${err}`);
      });
      return out.slice(from, out.indexOf(marker, from));
    },
    stderr: () => err,
    close: () => shell.kill('SIGKILL'),
  };
}

/** Whether any process of the group led by `pid` is still there. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const isPlayableMp4 = (bytes: Buffer) => bytes.length > 1000 && bytes.toString('latin1', 4, 8) === 'ftyp' && bytes.includes('moov');

/**
 * The README's "Done when": a fresh clone, the README's two commands, every walk-through example
 * against the simulator with the defaults (SQLite), offline, then a restart on another port.
 * The clone is of this checkout's last commit (commit README changes before running it).
 * node_modules is copied from this checkout (the README's `npm install` then runs for real,
 * offline, and finds everything in place), so the test takes about a minute and needs no registry.
 */
describe('README walk-through on a fresh clone', () => {
  let dir: string;
  let gateway: Started | undefined;
  let shell: ReturnType<typeof persistentShell> | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
  });
  afterAll(async () => {
    shell?.close();
    await gateway?.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('runs every example as written and gets what the README says', async () => {
    const repo = join(dir, 'repo');
    const work = join(dir, 'terminal');
    execFileSync('git', ['clone', '--quiet', ROOT, repo]);
    mkdirSync(work);
    // Its real path: in a git worktree node_modules may be a symlink, which `npm install` would replace (offline: not at all).
    if (existsSync(join(ROOT, 'node_modules')))
      execFileSync('cp', ['-a', realpathSync(join(ROOT, 'node_modules')), join(repo, 'node_modules')]);

    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const quickStart = sectionBlocks(readme, '## Quick start');
    expect(quickStart[0].code).toMatch(/^npm install && npm start\b/m);
    expect([...configurationVariables(readme)]).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'SIMULATOR']));
    const blocks = sectionBlocks(readme, SECTION);
    const starts = blocks.filter((b) => b.lang === 'bash').map((b) => b.code.replace(/#.*$/gm, '').trim());
    expect(starts).toEqual(['npm install && npm start', 'PORT=3001 npm start']);

    const port1 = await freePort();
    let port2 = await freePort();
    while (port2 === port1) port2 = await freePort();
    const localize = (code: string) =>
      code.replace(/localhost:3000/g, `localhost:${port1}`).replace(/localhost:3001/g, `localhost:${port2}`);
    shell = persistentShell(work);
    const outputs: string[] = [];
    let credentials: { exportLine: string } | undefined;

    for (const block of blocks) {
      if (block.lang === 'bash') {
        if (block.code.includes('PORT=3001')) {
          await gateway!.stop();
          gateway = await startAsTheReadmeSays(starts[1].replace('PORT=3001', `PORT=${port2}`), repo, readme, port2);
        } else {
          gateway = await startAsTheReadmeSays(starts[0], repo, readme, port1);
          const banner = gateway.output();
          const exportLine = /^export GW=http:\/\/localhost:\d+ ADMIN=adm-\S+ KEY=sk-\S+ PASS=\S+$/m.exec(banner)?.[0];
          const password = /demo console login\s+demo \/ (\S+)/.exec(banner)?.[1];
          if (!exportLine || !password) throw new Error(`no credentials in the first start's output:\n${banner}`);
          expect(password).toMatch(/^[\w.~-]+$/);
          expect(exportLine).toContain(`GW=http://localhost:${port1} `);
          expect(exportLine).toContain(` PASS=${password}`);
          credentials = { exportLine };
        }
        continue;
      }
      let code = localize(block.code);
      if (/^export GW=/m.test(code)) {
        // What the user pastes from the frame.
        code = code.replace(/^export GW=.*$/m, credentials!.exportLine);
      }
      outputs.push(await shell.run(code));
    }
    const all = outputs.join('\n');

    // Every task of every family finished, and every download is a real MP4.
    // (toMatch on the block's output, so a failure shows what the user would have seen.)
    const polled = outputs[blocks.filter((b) => b.lang === 'sh').findIndex((b) => b.code.includes('wait_done $t'))];
    expect(polled).toMatch(/^(task_\w+ completed\n){8}/);
    const videos = readdirSync(work).filter((name) => name.endsWith('.mp4'));
    expect(videos).toHaveLength(9); // video.mp4, seven by task id, again.mp4 after the restart
    for (const name of videos) expect(isPlayableMp4(readFileSync(join(work, name)))).toBe(true);
    expect(all).toContain('f   t   y   p');
    // Each answer says what its task cost, settled on the stored video: the simulator delivers what was asked.
    expect(polled).toMatch(/^\{"seconds":\d+,"resolution":"\w+","audio":(true|false),"quota":\d+,"usd":[\d.]+,"settled":"delivered"\}$/m);

    // Video from video: the source, its edit and its extension completed; the edit names its source.
    expect(all).toMatch(/^(task_\w+ completed\n){3}task_\w+$/m);

    // Verification: the liveness pass came back to the business, the asset became active.
    expect(all).toMatch(/^https:\/\/example\.com\/verified\?providerToken=\S+resultCode=10000/m);
    expect(all).toMatch(/"status":"active"/);

    // A retry with the same Idempotency-Key: the same task, charged once (the ledger below has one consume per task).
    expect(all).toMatch(/^the same task: task_\w+$/m);
    expect(all).toMatch(/^charged once: \d+$/m);

    // The refused submit: a 400, no charge, the customer's logs as they were.
    expect(all).toMatch(/HTTP 400/);
    expect(all).toMatch(/^quota unchanged: \d+$/m);
    expect(all).toContain("customer's logs unchanged");
    const customerLogs = JSON.parse(readFileSync(join(work, 'logs-after.json'), 'utf8'));
    const types = (customerLogs.data as Array<{ type: string }>).map((row) => row.type);
    // The eight tasks of the walk-through, and the source, edit and extend of "Video from video".
    expect(types.filter((t) => t === 'consume')).toHaveLength(11);
    // Settled at what they were charged: no task delivered less than it asked.
    expect(types).not.toContain('refund');
    expect(types).not.toContain('hold');
    expect(types).not.toContain('release');

    // A model added with no release: listed on its channel, quoted, and charged exactly the quote.
    expect(all).toMatch(/^added: 201$/m);
    expect(all).toMatch(/^listed: 200$/m);
    expect(all).toMatch(/"id":"kling-v3-1"[^\n]*"durations":\{"min":3,"max":15\}/);
    expect(all).toMatch(/^quoted 5600, charged 5600$/m);

    // A key with its own limits: past its day's budget, off its network, expired; refused, never charged.
    expect(all).toMatch(/"code":"key_budget_exceeded"[^\n]*\nHTTP 402/);
    expect(all).toMatch(/^nothing charged: \d+$/m);
    expect(all).toMatch(/"code":"ip_not_allowed"[^\n]*\nHTTP 403/);
    expect(all).toMatch(/"code":"key_expired"[^\n]*\nHTTP 401/);
    expect(all).toContain('"budget_used":9000');

    // After the restart on another port.
    expect(all).toContain('the old video still plays');
    expect(gateway!.output()).toContain(`listening on port ${port2}`);
    // `npm install` changed no tracked file (the lock file holds), the build and the database are ignored.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo }).toString()).toBe('');
  }, 300_000);
});
