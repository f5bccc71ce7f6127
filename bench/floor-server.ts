/**
 * The bare floor of the hot-path benchmark: a plain `node:http` server, in a process of its own,
 * doing the same database work as the gateway's hot paths on the same database, and nothing else.
 * - `GET /v1/videos/{id}` and `GET /v1/video/generations/{id}`: SHA-256 of the bearer key, one
 *   indexed key-and-user lookup, one task lookup by task id and owner, a JSON answer.
 * - `POST /v1/videos`: the key lookup, then the submit's first transaction (insert the task as
 *   SUBMITTING, take the charge with a conditional update, read the balance, write the hold's ledger
 *   row), the same loopback upstream call (keep-alive), then the second transaction (mark the task
 *   submitted with a compare-and-set, the hold becomes the charge) and a JSON answer.
 * - `POST /v1/videos/quote`: the key lookup, then what a quote reads fresh (the balance, the key's
 *   limits), the price from a table held in memory (the gateway's is cached too) and a JSON answer.
 * FLOOR_DATABASE_URL is `sqlite:<path>` or a `mysql://` URL; FLOOR_UPSTREAM_URL the lean upstream.
 * Prints `listening <port>`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Agent, createServer, IncomingMessage, request, ServerResponse } from 'node:http';
import { sqliteDriver } from '../src/database/sqlite-driver';

interface Caller {
  keyId: number;
  userId: number;
  group: string;
}

type TaskRow = Record<string, unknown> & {
  id: number;
  task_id: string;
  user_id: number;
  status: string;
  progress: number;
  created_at: number | string;
};

interface NewTask {
  taskId: string;
  caller: Caller;
  model: string;
  request: string;
  quota: number;
  channelId: number;
  owner: string;
  now: number;
}

/** The floor's database work, one method per step. */
interface FloorStore {
  caller(keyHash: string): Promise<Caller | undefined>;
  task(userId: number, taskId: string): Promise<TaskRow | undefined>;
  /** The first transaction; false when the balance is short (rolled back). */
  record(task: NewTask): Promise<boolean>;
  /** The second transaction. */
  markSubmitted(task: NewTask, upstreamTaskId: string, now: number): Promise<boolean>;
  /** A quote's fresh reads: the balance and the key's limits. */
  quoteReads(caller: Caller): Promise<{ balance: number; key: Record<string, unknown> | undefined }>;
}

const KEY_LIMITS_SQL = 'SELECT quota_limit, used_quota, budget, budget_used, budget_period, budget_period_start FROM api_keys WHERE id = ?';
/** The floor's price table, in memory: alpha/v6 at 720p, per second. */
const PRICE_PER_SECOND = 900;

const CALLER_SQL =
  'SELECT k.id AS key_id, k.status AS key_status, u.id AS user_id, u.status AS user_status, u.user_group AS user_group ' +
  'FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?';
const TASK_SQL = 'SELECT * FROM tasks WHERE task_id = ? AND user_id = ? AND deleted_at IS NULL';
const INSERT_TASK_SQL =
  'INSERT INTO tasks (task_id, user_id, api_key_id, user_group, platform, model, upstream_model, action, channel_id, status, progress, quota, request, ' +
  'next_poll_at, lease_owner, lease_until, poll_failures, created_at, updated_at) ' +
  "VALUES (?, ?, ?, ?, 'alpha', ?, 'v6', 'textGenerate', ?, 'SUBMITTING', 0, ?, ?, ?, ?, ?, 0, ?, ?)";
const CHARGE_SQL = 'UPDATE users SET quota = quota - ?, used_quota = used_quota + ?, updated_at = ? WHERE id = ? AND quota >= ?';
const BALANCE_SQL = 'SELECT quota FROM users WHERE id = ?';
const HOLD_SQL =
  "INSERT INTO logs (type, user_id, task_id, model, quota, balance_after, channel_id, detail, created_at) VALUES ('hold', ?, ?, ?, ?, ?, ?, 'bench', ?)";
const SUBMITTED_SQL =
  "UPDATE tasks SET status = 'NOT_START', upstream_task_id = ?, submit_time = ?, next_poll_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ? " +
  "WHERE task_id = ? AND status = 'SUBMITTING' AND lease_owner = ?";
const CONFIRM_SQL = "UPDATE logs SET type = 'consume' WHERE task_id = ? AND type = 'hold'";

const toCaller = (row: Record<string, unknown> | undefined): Caller | undefined =>
  row && row.key_status === 'active' && row.user_status === 'active'
    ? { keyId: Number(row.key_id), userId: Number(row.user_id), group: String(row.user_group) }
    : undefined;

const recordParams = (t: NewTask) => [
  t.taskId,
  t.caller.userId,
  t.caller.keyId,
  t.caller.group,
  t.model,
  t.channelId,
  t.quota,
  t.request,
  t.now + 60_000,
  t.owner,
  t.now + 60_000,
  t.now,
  t.now,
];

/** better-sqlite3 on the file, statements prepared once; each transaction runs synchronously, so none interleave. */
function sqliteStore(path: string): FloorStore {
  type Statement = { get(...values: unknown[]): Record<string, unknown> | undefined; run(...values: unknown[]): { changes: number } };
  type Database = {
    prepare(sql: string): Statement;
    pragma(sql: string): unknown;
    transaction<A extends unknown[], T>(work: (...args: A) => T): (...args: A) => T;
  };
  const Sqlite = sqliteDriver() as new (path: string) => Database;
  const db = new Sqlite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  const [caller, task, insert, charge, balance, hold, submitted, confirm, keyLimits] = [
    CALLER_SQL,
    TASK_SQL,
    INSERT_TASK_SQL,
    CHARGE_SQL,
    BALANCE_SQL,
    HOLD_SQL,
    SUBMITTED_SQL,
    CONFIRM_SQL,
    KEY_LIMITS_SQL,
  ].map((sql) => db.prepare(sql));
  const record = db.transaction((t: NewTask) => {
    insert.run(...recordParams(t));
    if (charge.run(t.quota, t.quota, t.now, t.caller.userId, t.quota).changes === 0) throw new Error('insufficient quota');
    const after = balance.get(t.caller.userId)!.quota;
    hold.run(t.caller.userId, t.taskId, t.model, -t.quota, after, t.channelId, t.now);
  });
  const mark = db.transaction((t: NewTask, upstreamTaskId: string, now: number) => {
    if (submitted.run(upstreamTaskId, now, now + 4000, now, t.taskId, t.owner).changes === 0) return false;
    confirm.run(t.taskId);
    return true;
  });
  return {
    caller: async (keyHash) => toCaller(caller.get(keyHash)),
    task: async (userId, taskId) => task.get(taskId, userId) as TaskRow | undefined,
    record: async (t) => {
      try {
        record(t);
        return true;
      } catch (error) {
        if ((error as Error).message === 'insufficient quota') return false;
        throw error;
      }
    },
    markSubmitted: async (t, upstreamTaskId, now) => mark(t, upstreamTaskId, now),
    quoteReads: async (c) => ({ balance: Number(balance.get(c.userId)!.quota), key: keyLimits.get(c.keyId) }),
  };
}

/** mysql2 pool (prepared statements), the same size as the gateway's. */
async function mysqlStore(url: string): Promise<FloorStore> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: 20,
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4',
    timezone: 'Z',
  });
  type Rows = Array<Record<string, unknown>>;
  const one = async (sql: string, params: unknown[]) => ((await pool.execute(sql, params as never[]))[0] as Rows)[0];
  const inTransaction = async <T>(
    work: (run: (sql: string, params: unknown[]) => Promise<{ affectedRows: number; rows: Rows }>) => Promise<T>,
  ): Promise<T> => {
    const connection = await pool.getConnection();
    try {
      await connection.beginTransaction();
      const run = async (sql: string, params: unknown[]) => {
        const [result] = await connection.execute(sql, params as never[]);
        return Array.isArray(result)
          ? { affectedRows: 0, rows: result as Rows }
          : { affectedRows: (result as { affectedRows: number }).affectedRows, rows: [] };
      };
      const value = await work(run);
      await connection.commit();
      return value;
    } catch (error) {
      await connection.rollback();
      throw error;
    } finally {
      connection.release();
    }
  };
  return {
    caller: async (keyHash) => toCaller(await one(CALLER_SQL, [keyHash])),
    task: async (userId, taskId) => (await one(TASK_SQL, [taskId, userId])) as TaskRow | undefined,
    record: (t) =>
      inTransaction(async (run) => {
        await run(INSERT_TASK_SQL, recordParams(t));
        if ((await run(CHARGE_SQL, [t.quota, t.quota, t.now, t.caller.userId, t.quota])).affectedRows === 0)
          throw new Error('insufficient quota');
        const after = (await run(BALANCE_SQL, [t.caller.userId])).rows[0].quota;
        await run(HOLD_SQL, [t.caller.userId, t.taskId, t.model, -t.quota, after, t.channelId, t.now]);
        return true;
      }).catch((error: Error) => {
        if (error.message === 'insufficient quota') return false;
        throw error;
      }),
    markSubmitted: (t, upstreamTaskId, now) =>
      inTransaction(async (run) => {
        if ((await run(SUBMITTED_SQL, [upstreamTaskId, now, now + 4000, now, t.taskId, t.owner])).affectedRows === 0) return false;
        await run(CONFIRM_SQL, [t.taskId]);
        return true;
      }),
    quoteReads: async (c) => ({ balance: Number((await one(BALANCE_SQL, [c.userId])).quota), key: await one(KEY_LIMITS_SQL, [c.keyId]) }),
  };
}

const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });

/** The same call the family A adapter makes to submit text to video. */
function callUpstream(base: string, body: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      `${base}/openapi/v2/video/text/generate`,
      {
        method: 'POST',
        agent: upstreamAgent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          'API-KEY': 'bench',
          'Ai-trace-id': randomBytes(16).toString('hex'),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(String((JSON.parse(text) as { Resp: { video_id: number } }).Resp.video_id));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const seconds = (ms: unknown) => (ms === null || ms === undefined ? 0 : Math.floor(Number(ms) / 1000));
const FLAT_STATUS: Record<string, string> = {
  NOT_START: 'queued',
  SUBMITTED: 'queued',
  QUEUED: 'queued',
  IN_PROGRESS: 'in_progress',
  SUCCESS: 'completed',
  FAILURE: 'failed',
};

const flat = (t: TaskRow) => ({
  id: t.task_id,
  task_id: t.task_id,
  object: 'video',
  model: t.model,
  status: FLAT_STATUS[t.status] ?? 'queued',
  progress: t.progress,
  created_at: seconds(t.created_at),
});
const unified = (t: TaskRow) => ({
  code: 'success',
  message: '',
  data: {
    id: Number(t.id),
    task_id: t.task_id,
    platform: t.platform,
    user_id: Number(t.user_id),
    group: t.user_group,
    channel_id: Number(t.channel_id ?? 0),
    quota: Number(t.quota),
    action: t.action,
    status: t.status,
    fail_reason: '',
    result_url: '',
    submit_time: seconds(t.submit_time),
    start_time: seconds(t.start_time),
    finish_time: seconds(t.finish_time),
    created_at: seconds(t.created_at),
    updated_at: seconds(t.updated_at),
    progress: `${t.progress}%`,
    properties: {
      input: (JSON.parse(String(t.request)) as { prompt?: string }).prompt ?? '',
      upstream_model_name: t.upstream_model,
      origin_model_name: t.model,
    },
    data: t.upstream_response ? JSON.parse(String(t.upstream_response)) : {},
  },
});

function send(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

async function handle(store: FloorStore, upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const caller = token ? await store.caller(createHash('sha256').update(token).digest('hex')) : undefined;
  if (!caller) return send(res, 401, { error: { message: 'invalid api key' } });
  const url = req.url ?? '/';
  if (req.method === 'GET') {
    const form = url.startsWith('/v1/videos/') ? 'flat' : url.startsWith('/v1/video/generations/') ? 'unified' : null;
    if (!form) return send(res, 404, { error: { message: 'not found' } });
    const task = await store.task(caller.userId, decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)));
    if (!task || task.status === 'SUBMITTING' || task.status === 'REJECTED')
      return send(res, 404, { error: { message: 'task not found' } });
    return send(res, 200, form === 'flat' ? flat(task) : unified(task));
  }
  if (req.method === 'POST' && url === '/v1/videos/quote') {
    const body = JSON.parse(await readBody(req)) as { model?: string; duration?: number; resolution?: string };
    if (body.model !== 'alpha/v6') return send(res, 400, { error: { message: `unknown model: ${String(body.model)}` } });
    const seconds = body.duration ?? 5;
    const quota = seconds * PRICE_PER_SECOND;
    const { balance, key } = await store.quoteReads(caller);
    if (
      balance < quota ||
      (key?.quota_limit !== null && key?.quota_limit !== undefined && Number(key.used_quota) + quota > Number(key.quota_limit))
    )
      return send(res, 402, { error: { message: 'insufficient user quota' } });
    return send(res, 200, {
      model: body.model,
      seconds,
      resolution: '720p',
      audio: false,
      quota,
      usd: quota / 10_000,
      detail: `alpha/v6 720p ${seconds}s: ${quota} x group default ratio 1`,
    });
  }
  if (req.method === 'POST' && url === '/v1/videos') {
    const body = JSON.parse(await readBody(req)) as { model?: string; prompt?: string; duration?: number; resolution?: string };
    if (typeof body.model !== 'string' || typeof body.prompt !== 'string')
      return send(res, 400, { error: { message: 'model and prompt are required' } });
    const now = Date.now();
    const task: NewTask = {
      taskId: `task_${randomBytes(16).toString('hex')}`,
      caller,
      model: body.model,
      request: JSON.stringify({ prompt: body.prompt, duration: body.duration, resolution: body.resolution }),
      quota: 1000,
      channelId: 1,
      owner: 'floor',
      now,
    };
    if (!(await store.record(task))) return send(res, 402, { error: { message: 'insufficient user quota' } });
    const upstreamTaskId = await callUpstream(upstream, {
      prompt: body.prompt,
      duration: body.duration,
      quality: body.resolution,
      model: 'v6',
    });
    if (!(await store.markSubmitted(task, upstreamTaskId, Date.now()))) return send(res, 503, { error: { message: 'lost the task' } });
    return send(res, 200, {
      id: task.taskId,
      task_id: task.taskId,
      object: 'video',
      model: task.model,
      status: 'queued',
      progress: 0,
      created_at: seconds(now),
    });
  }
  send(res, 404, { error: { message: 'not found' } });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.FLOOR_DATABASE_URL ?? '';
  const store = databaseUrl.startsWith('sqlite:') ? sqliteStore(databaseUrl.slice('sqlite:'.length)) : await mysqlStore(databaseUrl);
  const upstream = process.env.FLOOR_UPSTREAM_URL ?? '';
  const server = createServer((req, res) => {
    handle(store, upstream, req, res).catch((error: Error) => {
      process.stderr.write(`floor: ${error.stack ?? error}\n`);
      if (!res.headersSent) send(res, 503, { error: { message: 'fault' } });
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
  });
}

void main();
