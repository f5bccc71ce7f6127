import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { runToExit } from './support/gateway-process';
import { describeEachDatabase, freshDatabase } from './support/test-databases';

/** What the configuration table promises at start: a generated admin token, simulator channels. */
describeEachDatabase('configuration at start', (kind) => {
  /** Starts a gateway on `database`; `gw.credentials` are the one-time secrets the start-up banner prints. */
  const boot = async (env: Record<string, string | undefined>, database: Awaited<ReturnType<typeof freshDatabase>>) => ({
    gw: await startGateway(kind, env as Record<string, string>, database),
  });
  const channelsOf = async (gw: TestGateway, token: string) =>
    (await gw.http.get('/api/admin/channels').set('Authorization', `Bearer ${token}`).expect(200)).body.data as Array<{
      platform: string;
      base_url: string;
      settings: Record<string, unknown>;
    }>;

  it('generates ADMIN_TOKEN at first start, prints it once and keeps it; the simulator seeds one channel per family only into an empty database', async () => {
    const database = await freshDatabase(kind);
    try {
      const first = await boot({ ADMIN_TOKEN: undefined, SIMULATOR: 'on' }, database);
      let token: string;
      try {
        expect(first.gw.credentials.adminToken).toMatch(/^adm-/);
        token = first.gw.credentials.adminToken!;
        expect(first.gw.credentials.demo?.apiKey).toMatch(/^sk-/);
        await first.gw.http.get('/api/admin/users').set('Authorization', `Bearer ${token}`).expect(200);
        await first.gw.http.get('/api/admin/users').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(401);
        const channels = await channelsOf(first.gw, token);
        expect(channels.map((channel) => channel.platform)).toEqual([
          'alpha',
          'beta',
          'gamma',
          'openai',
          'kling',
          'veo',
          'minimax',
          'runway',
          'vidu',
          'xai',
          'seedance',
          'wan',
          'fal',
          'replicate',
        ]);
        for (const channel of channels)
          expect(channel.base_url).toMatch(
            /^http:\/\/127\.0\.0\.1:\d+\/simulator\/(alpha|beta|gamma|openai|kling|veo|minimax|runway|vidu|xai|seedance|wan|fal|replicate)$/,
          );
        expect(channels[2].settings).toMatchObject({
          control_base_url: expect.stringMatching(/\/simulator\/gamma-control$/),
          access_key: '***',
          secret_key: '***',
        });
      } finally {
        await first.gw.close();
      }

      const second = await boot({ ADMIN_TOKEN: undefined, SIMULATOR: 'on' }, database);
      try {
        expect(second.gw.credentials.adminToken).toBeNull();
        // The demo user and its key are printed once too: the database already has users.
        expect(second.gw.credentials.demo).toBeNull();
        await second.gw.http.get('/api/admin/users').set('Authorization', `Bearer ${token}`).expect(200);
        expect(await channelsOf(second.gw, token)).toHaveLength(14);
      } finally {
        await second.gw.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('leaves the channels alone when the operator already configured one', async () => {
    const database = await freshDatabase(kind);
    try {
      const plain = await boot({}, database);
      try {
        await plain.gw.createChannel({
          name: 'own',
          platform: 'alpha',
          base_url: 'https://93.184.216.34',
          api_key: 'k',
          models: ['alpha/v6'],
        });
      } finally {
        await plain.gw.close();
      }
      const simulated = await boot({ SIMULATOR: 'on' }, database);
      try {
        expect((await channelsOf(simulated.gw, ADMIN_TOKEN)).map((channel) => channel.base_url)).toEqual(['https://93.184.216.34']);
        // The simulator itself is mounted all the same.
        await simulated.gw.http.get('/simulator/gamma-control/h5?token=unknown').expect(410);
      } finally {
        await simulated.gw.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('configuration errors', () => {
  it('stop the start with a message naming every bad variable', async () => {
    const { code, stderr } = await runToExit({
      PORT: '70000',
      PUBLIC_BASE_URL: 'ftp://gw.example.com',
      SIMULATOR: 'maybe',
      SERVER_SECRET_FILE: '/nonexistent/server_secret',
      TASK_RETENTION: '90 days',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('PORT: must be an integer from 0 to 65535');
    expect(stderr).toContain('PUBLIC_BASE_URL: must be an absolute http(s) URL without query or fragment');
    expect(stderr).toContain('SIMULATOR: must be on or off');
    expect(stderr).toContain('SERVER_SECRET_FILE: cannot be read (ENOENT)');
    expect(stderr).toContain('TASK_RETENTION: must be 0 or a duration such as 90d, 12h, 15m or 30s');
  }, 180_000);
});
