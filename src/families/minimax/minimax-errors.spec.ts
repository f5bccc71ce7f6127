import { mapMinimaxError, minimaxAnswerError } from './minimax-errors';
import { readMinimaxQuery } from './minimax-query-mapping';

const answer = (status_code: number, status_msg = 'see http://10.0.0.1 key sk-secret123456') => ({
  task_id: '',
  base_resp: { status_code, status_msg },
});

describe('MiniMax status and error mapping', () => {
  it('maps the query statuses, in any case; Success carries the file to retrieve and the size', () => {
    expect(readMinimaxQuery({ status: 'Preparing', base_resp: { status_code: 0 } }).state).toBe('queued');
    expect(readMinimaxQuery({ status: 'Queueing', base_resp: { status_code: 0 } }).state).toBe('queued');
    expect(readMinimaxQuery({ status: 'processing', base_resp: { status_code: 0 } }).state).toBe('running');
    expect(
      readMinimaxQuery({
        status: 'Success',
        file_id: '176844028768320',
        video_width: 1920,
        video_height: 1080,
        base_resp: { status_code: 0 },
      }),
    ).toMatchObject({
      state: 'succeeded',
      fileId: '176844028768320',
      outputSize: '1920x1080',
    });
  });

  it('ends a Fail with 1026/1027 as content moderation failed, another code as generation failed, never the message', () => {
    const blocked = readMinimaxQuery({ status: 'Fail', ...answer(1027) });
    expect(blocked).toMatchObject({ state: 'failed', failReason: 'content moderation failed: 1027: the output was flagged as sensitive' });
    expect(JSON.stringify(blocked)).not.toMatch(/10\.0\.0\.1|sk-secret/);
    expect(readMinimaxQuery({ status: 'Fail', ...answer(1000) }).failReason).toBe('generation failed: 1000: unknown provider error');
    expect(readMinimaxQuery({ status: 'Success', base_resp: { status_code: 0 } })).toMatchObject({ state: 'failed' });
  });

  it('treats an unknown status as transient, and a query without status as its base_resp error', () => {
    expect(() => readMinimaxQuery({ status: 'Archiving', base_resp: { status_code: 0 } })).toThrow(
      expect.objectContaining({ kind: 'transient' }),
    );
    expect(() => readMinimaxQuery(answer(1004))).toThrow(expect.objectContaining({ kind: 'channel' }));
  });

  it('reads base_resp codes of HTTP 200 answers by their documented kind', () => {
    expect(minimaxAnswerError({ task_id: '1', base_resp: { status_code: 0 } })).toBeNull();
    expect(minimaxAnswerError(answer(1008))).toMatchObject({
      kind: 'channel',
      message: '1008: the provider account has insufficient balance',
    });
    expect(minimaxAnswerError(answer(2049))?.kind).toBe('channel');
    expect(minimaxAnswerError(answer(1026))).toMatchObject({
      kind: 'moderation',
      message: 'content moderation failed: 1026: the input was flagged as sensitive',
    });
    expect(minimaxAnswerError(answer(2013))).toMatchObject({ kind: 'invalid_input', message: '2013: invalid params' });
    expect(minimaxAnswerError(answer(1002))).toMatchObject({ kind: 'backpressure', details: { retryAfterSeconds: 10 } });
    expect(minimaxAnswerError(answer(1024))?.kind).toBe('transient');
    expect(minimaxAnswerError(answer(9999))).toMatchObject({ kind: 'transient', message: '9999: provider error' });
    expect(minimaxAnswerError({})?.kind).toBe('transient');
  });

  it('maps non-2xx answers by code, else by status', () => {
    expect(mapMinimaxError(401, undefined, undefined, 0)).toMatchObject({
      kind: 'channel',
      message: 'the provider refused the channel (HTTP 401)',
    });
    expect(mapMinimaxError(429, undefined, '12', 0)).toMatchObject({ kind: 'backpressure', details: { retryAfterSeconds: 12 } });
    expect(mapMinimaxError(400, answer(1008), undefined, 0)).toMatchObject({
      kind: 'channel',
      details: { httpStatus: 400, upstreamCode: 1008 },
    });
    expect(mapMinimaxError(400, { error: 'x' } as never, undefined, 0).kind).toBe('invalid_input');
    expect(mapMinimaxError(502, undefined, undefined, 0).kind).toBe('transient');
  });
});
