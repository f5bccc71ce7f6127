import { mapBetaQuery } from './beta-query-mapping';

const body = (output: Record<string, unknown>, usage?: Record<string, unknown>) => ({
  request_id: 'r',
  output: { task_id: 't', ...output },
  ...(usage ? { usage } : {}),
});

describe('family B query mapping', () => {
  it('maps the waiting and running states and keeps the documented fields of the body', () => {
    const pending = body({ task_status: 'PENDING' });
    expect(mapBetaQuery(pending)).toEqual({ state: 'queued', raw: pending });
    expect(mapBetaQuery({ ...body({ task_status: 'RUNNING', debug: 'x'.repeat(10_000) }), trace: 'at /srv/app.js:1:1' }).raw).toEqual(
      body({ task_status: 'RUNNING' }),
    );
    expect(mapBetaQuery(body({ task_status: 'RUNNING' })).state).toBe('running');
  });

  it('maps SUCCEEDED with its video_url, usage floats untouched', () => {
    const done = body({ task_status: 'SUCCEEDED', video_url: 'https://v/x.mp4?Expires=1' }, { duration: 5.0, SR: 720.0, ratio: '16:9' });
    expect(mapBetaQuery(done)).toEqual({ state: 'succeeded', videoUrl: 'https://v/x.mp4?Expires=1', outputSize: '1280x720', raw: done });
  });

  it('fails FAILED, CANCELED and UNKNOWN with the code (never the message) in the reason', () => {
    const failed = mapBetaQuery(body({ task_status: 'FAILED', code: 'InternalError.Algo', message: 'oops at http://10.0.0.1' }));
    expect(failed).toMatchObject({
      failReason: 'generation failed: InternalError.Algo: provider internal error',
      raw: body({ task_status: 'FAILED', code: 'InternalError.Algo' }),
    });
    expect(mapBetaQuery(body({ task_status: 'FAILED', code: 'DataInspectionFailed', message: 'bad' })).failReason).toBe(
      'content moderation failed: DataInspectionFailed',
    );
    expect(mapBetaQuery(body({ task_status: 'FAILED', code: 'http://10.0.0.1/x', message: 'bad' })).failReason).toBe('generation failed');
    expect(mapBetaQuery(body({ task_status: 'CANCELED' }))).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the task was canceled upstream',
    });
    expect(mapBetaQuery(body({ task_status: 'UNKNOWN' }))).toMatchObject({ state: 'failed' });
  });

  it('keeps a video link only when it may be shown, and fails a success without one', () => {
    const policy = { allowPrivate: false, trustedHosts: ['provider.test:8443'] };
    for (const link of [
      'file:///etc/passwd',
      'http://169.254.169.254/latest/',
      'http://10.0.0.1/v.mp4',
      'https://u:p@cdn.example.com/v.mp4',
    ]) {
      const outcome = mapBetaQuery(body({ task_status: 'SUCCEEDED', video_url: link }), policy);
      expect(outcome).toMatchObject({
        state: 'failed',
        failReason: 'generation failed: the provider handed out a video link that cannot be used',
      });
      expect(JSON.stringify(outcome.raw)).not.toContain(link);
    }
    expect(mapBetaQuery(body({ task_status: 'SUCCEEDED', video_url: 'https://provider.test:8443/v.mp4' }), policy).state).toBe('succeeded');
    expect(mapBetaQuery(body({ task_status: 'SUCCEEDED', video_url: 'https://cdn.example.com/v.mp4' }), policy).state).toBe('succeeded');
  });

  it('treats a garbled answer as a transient poll error', () => {
    expect(() => mapBetaQuery({ nothing: true })).toThrow(/unexpected task_status/);
    expect(mapBetaQuery(body({ task_status: 'SUCCEEDED' })).state).toBe('failed');
  });
});
