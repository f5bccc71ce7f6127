import { RunwayEmulatorServer, startRunwayEmulator } from '../../../test/support/runway-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { RunwayTaskRequest } from './runway-request';
import { RunwayInputImages } from './runway-input-images.service';
import { RunwayUpstreamAdapter } from './runway-upstream.adapter';
import { emulatorChannel, loopbackCalls, submittedTasks, upstreamTasks } from '../shared/family.spec-support';

/** The adapter against the fake Runway API on loopback: submit, poll, cancel, each with the key and X-Runway-Version. */
describe('RunwayUpstreamAdapter against the fake Runway API', () => {
  let fake: RunwayEmulatorServer;
  let adapter: RunwayUpstreamAdapter;
  let channel: ChannelEntity;
  const config = { mediaAllowPrivateHosts: true } as AppConfig;
  const TEXT_REQUEST: RunwayTaskRequest = { mode: 'text', promptText: 'p', ratio: '1280:720', duration: 5, extra: {} };
  const task = upstreamTasks(TEXT_REQUEST, 'gen4.5');

  beforeAll(async () => {
    fake = await startRunwayEmulator();
    adapter = new RunwayUpstreamAdapter(loopbackCalls(config), new RunwayInputImages(config));
    channel = emulatorChannel('runway', fake);
  });
  afterAll(() => fake.close());

  const submitted = submittedTasks(task, (base) => adapter.submit(base, channel));

  it('cancels a running task with DELETE /v1/tasks/{id}; the next poll reads CANCELLED as failed', async () => {
    fake.scriptNext(['RUNNING']);
    const running = await submitted();
    expect(await adapter.poll(running, channel)).toMatchObject({ state: 'running', progress: 45 });
    await expect(adapter.cancel(running, channel)).resolves.toBeUndefined();
    const deleted = fake.deletes().at(-1)!;
    expect(deleted.path).toBe(`/v1/tasks/${running.upstreamTaskId}`);
    expect(deleted.headers).toMatchObject({ authorization: `Bearer ${fake.apiKey}`, 'x-runway-version': '2024-11-06' });
    expect(await adapter.poll(running, channel)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the task was cancelled upstream',
    });
  });

  it('a cancel Runway refuses is an UpstreamError: an unknown task, a bad key', async () => {
    await expect(adapter.cancel(task({ upstreamTaskId: 'no-such-task' }), channel)).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 404 },
    });
    const running = await submitted();
    await expect(adapter.cancel(running, { ...channel, apiKey: 'key_wrong' })).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 401 },
    });
    await expect(adapter.cancel(task({ upstreamTaskId: null }), channel)).rejects.toMatchObject({ kind: 'channel' });
  });
});
