import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { describeEachDatabase, freshDatabase, FreshDatabase } from './support/test-databases';

/** The lines a start printed besides request logs (one JSON line per request, e.g. the health checks). */
const startupLines = (output: string): string[] => output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{"'));

/**
 * A newcomer's gateway, restarted: the defaults (SQLite or MySQL, the simulator, public media
 * hosts only), in real processes. The start-up output is short and frames the one-time secrets;
 * after a restart on another port the seeded channels follow, old videos play, tasks in flight
 * finish, and no upstream id is handed out twice.
 */
describeEachDatabase('a restart changes nothing a user sees', (kind) => {
  let database: FreshDatabase;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(async () => {
    await gateway?.stop();
    await database?.drop();
  });

  const start = async () =>
    (gateway = await startGatewayProcess({
      DATABASE_URL: database.url,
      SIMULATOR: 'on',
      LOG_LEVEL: 'info',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'false',
    }));
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gateway!.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: any = null;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      /* a video */
    }
    return { status: res.status, json, bytes };
  };
  const finished = (key: string, id: string) =>
    until(`task ${id} to finish`, async () => {
      const { json } = await call(key, 'GET', `/v1/videos/${id}`);
      return json?.status === 'completed' || json?.status === 'failed' ? json : undefined;
    });

  it('prints a short banner, keeps the simulator state and follows the new port', async () => {
    const first = await start();
    const banner = await until('the start-up banner', async () =>
      /demo console login/.test(first.output()) ? startupLines(first.output()) : undefined,
    );
    expect(banner.length).toBeLessThanOrEqual(20);
    const text = banner.join('\n');
    expect(text).toContain(`listening on port ${first.port}`);
    expect(text).toContain(`http://localhost:${first.port}/console`);
    expect(text).toContain(`http://localhost:${first.port}/docs`);
    expect(text).toMatch({ sqlite: /database +SQLite /, mysql: /database +MySQL /, postgres: /database +PostgreSQL / }[kind]);
    expect(text).toMatch(/simulator +on/);
    expect(text).not.toMatch(/Mapped \{|RouterExplorer|InstanceLoader/);
    const adminToken = /ADMIN_TOKEN\s+(adm-\S+)/.exec(text)![1];
    const demoKey = /demo API key\s+(sk-\S+)/.exec(text)![1];
    expect(text).toMatch(/\+-+\+\n\| Shown once/);

    // A video made before the restart.
    const old = await call(demoKey, 'POST', '/v1/videos', { model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5 });
    expect(old.status).toBe(200);
    expect((await finished(demoKey, old.json.id)).status).toBe('completed');
    // The simulator's video, made to what was asked: kept and played the same after the restart.
    const oldVideo = (await call(demoKey, 'GET', `/v1/videos/${old.json.id}/content`)).bytes;
    expect(oldVideo.toString('latin1', 4, 8)).toBe('ftyp');
    // Tasks still in flight when the gateway stops.
    const inFlightA = await call(demoKey, 'POST', '/v1/videos', { model: 'alpha/v6', prompt: 'waves at night', duration: 5 });
    const inFlightB = await call(demoKey, 'POST', '/v1/video/generations', { model: 'beta-1.0-t2v', prompt: 'a paper boat', size: '720P' });
    expect([inFlightA.status, inFlightB.status]).toEqual([200, 200]);
    await first.stop();

    const second = await start();
    expect(second.port).not.toBe(first.port);
    // The banner comes once the seeded channels point at the new port (/health answers a moment earlier).
    const again = (
      await until('the second banner', async () => (/simulator +on/.test(second.output()) ? startupLines(second.output()) : undefined))
    ).join('\n');
    // No credential again (`adm-...`, `sk-...`; a job's name such as task-sync is no key).
    expect(again).not.toMatch(/Shown once|\badm-[A-Za-z0-9]|\bsk-[A-Za-z0-9]/);

    const channels = await call(adminToken, 'GET', '/api/admin/channels');
    expect(channels.json.data.map((channel: { base_url: string }) => new URL(channel.base_url).port)).toEqual(
      Array(14).fill(String(second.port)),
    );
    expect(channels.json.data.find((channel: { platform: string }) => channel.platform === 'gamma').settings.control_base_url).toBe(
      `http://127.0.0.1:${second.port}/simulator/gamma-control`,
    );

    const replayed = await call(demoKey, 'GET', `/v1/videos/${old.json.id}/content`);
    expect(replayed.status).toBe(200);
    expect(Buffer.compare(replayed.bytes, oldVideo)).toBe(0);
    expect((await finished(demoKey, inFlightA.json.id)).status).toBe('completed');
    expect((await finished(demoKey, inFlightB.json.id)).status).toBe('completed');
    expect((await call(demoKey, 'GET', `/v1/videos/${inFlightB.json.id}/content`)).bytes.toString('latin1', 4, 8)).toBe('ftyp');

    // A new task after the restart gets an upstream id of its own (the simulator's counter did not start over).
    const fresh = await call(demoKey, 'POST', '/v1/videos', { model: 'alpha/v6', prompt: 'a new day', duration: 5 });
    expect((await finished(demoKey, fresh.json.id)).status).toBe('completed');
    const tasks = (await call(adminToken, 'GET', '/api/admin/tasks?page_size=100')).json.data as Array<{
      task_id: string;
      upstream_task_id: string;
    }>;
    const upstreamIds = tasks.map((task) => task.upstream_task_id);
    expect(tasks).toHaveLength(4);
    expect(new Set(upstreamIds).size).toBe(4);
    // Each still shows its own video.
    expect((await call(demoKey, 'GET', `/v1/videos/${fresh.json.id}/content`)).status).toBe(200);
  }, 240_000);
});
