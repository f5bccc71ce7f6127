import { mapBetaQuery } from './beta-query-mapping';

const body = (output: Record<string, unknown>, usage?: Record<string, unknown>) => ({ request_id: 'r', output: { task_id: 't', ...output }, ...(usage ? { usage } : {}) });

describe('family B query mapping', () => {
  it('maps the waiting and running states and keeps the raw body', () => {
    const pending = body({ task_status: 'PENDING' });
    expect(mapBetaQuery(pending)).toEqual({ state: 'queued', raw: pending });
    expect(mapBetaQuery(body({ task_status: 'RUNNING' })).state).toBe('running');
  });

  it('maps SUCCEEDED with its video_url, usage floats untouched', () => {
    const done = body({ task_status: 'SUCCEEDED', video_url: 'https://v/x.mp4?Expires=1' }, { duration: 5.0, SR: 720.0, ratio: '16:9' });
    expect(mapBetaQuery(done)).toEqual({ state: 'succeeded', videoUrl: 'https://v/x.mp4?Expires=1', raw: done });
  });

  it('fails FAILED, CANCELED and UNKNOWN with the code and message in the reason', () => {
    expect(mapBetaQuery(body({ task_status: 'FAILED', code: 'InternalError.Algo', message: 'oops' })).failReason).toBe('generation failed (InternalError.Algo: oops)');
    expect(mapBetaQuery(body({ task_status: 'FAILED', code: 'DataInspectionFailed', message: 'bad' })).failReason).toBe('content moderation failed (DataInspectionFailed: bad)');
    expect(mapBetaQuery(body({ task_status: 'CANCELED' }))).toMatchObject({ state: 'failed', failReason: 'generation failed (the task was canceled upstream)' });
    expect(mapBetaQuery(body({ task_status: 'UNKNOWN' }))).toMatchObject({ state: 'failed' });
  });

  it('treats a garbled answer as a transient poll error', () => {
    expect(() => mapBetaQuery({ nothing: true })).toThrow(/unexpected task_status/);
    expect(mapBetaQuery(body({ task_status: 'SUCCEEDED' })).state).toBe('failed');
  });
});
