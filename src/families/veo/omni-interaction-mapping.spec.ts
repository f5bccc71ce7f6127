import { mapOmniInteraction, omniInlineVideo } from './omni-interaction-mapping';
import { buildOmniCreateBody } from './omni-protocol';

const VIDEO = {
  type: 'model_output',
  content: [{ type: 'video', mime_type: 'video/mp4', uri: 'https://g.test/v1beta/files/f1:download?alt=media' }],
};

describe('mapOmniInteraction', () => {
  it.each<[string, unknown, object]>([
    ['queued', { status: 'queued' }, { state: 'queued' }],
    ['in progress', { status: 'in_progress' }, { state: 'running' }],
    [
      'completed: the Files URI, the output tokens',
      { status: 'completed', steps: [{ type: 'user_input' }, VIDEO], usage: { total_output_tokens: 46336, total_tokens: 46348 } },
      { state: 'succeeded', videoUrl: VIDEO.content[0].uri, providerUsage: { unit: 'tokens', amount: 46336 } },
    ],
    [
      'completed with the video inline only: the marker, never the bytes',
      { status: 'completed', steps: [{ type: 'model_output', content: [{ type: 'video', data: 'AAAA' }] }] },
      { state: 'succeeded', progress: 100, videoUrl: 'inline:', raw: { status: 'completed', videos: 1 } },
    ],
    [
      'completed with no video',
      { status: 'completed', steps: [] },
      { state: 'failed', failReason: 'generation failed: the provider returned no video' },
    ],
    [
      'failed by a safety block',
      {
        status: 'failed',
        steps: [{ type: 'model_output', error: { code: 3, message: 'see http://10.9.9.9', details: [{ reason: 'SAFETY' }] } }],
      },
      { state: 'failed', failReason: 'content moderation failed: safety' },
    ],
    [
      'failed, an error type naming a block',
      { status: 'failed', errors: [{ code: 'https://ai.google.dev/errors/prompt_blocked' }] },
      { state: 'failed', failReason: 'content moderation failed: safety' },
    ],
    [
      'failed with an rpc code',
      { status: 'failed', steps: [{ type: 'model_output', error: { code: 13, message: 'at 10.1.2.3' } }] },
      { state: 'failed', failReason: 'generation failed: INTERNAL: provider internal error' },
    ],
    ['cancelled: an end', { status: 'cancelled' }, { state: 'failed', cancelledUpstream: true }],
    ['expired: an end', { status: 'expired' }, { state: 'failed', failReason: 'upstream timeout: the provider expired the interaction' }],
    ['incomplete: an end', { status: 'incomplete' }, { state: 'failed' }],
    ['requires_action: an end', { status: 'requires_action' }, { state: 'failed' }],
  ])('%s', (_name, body, expected) => {
    const outcome = mapOmniInteraction(body);
    expect(outcome).toMatchObject(expected);
    expect(JSON.stringify(outcome)).not.toMatch(/10\.\d|AAAA/);
  });

  it('asks again on a status it does not know, never ends the task on it', () => {
    expect(() => mapOmniInteraction({ status: 'thinking' })).toThrow(expect.objectContaining({ kind: 'transient' }));
  });
});

describe('omniInlineVideo', () => {
  const inline = (data: unknown, status = 'completed') => ({
    status,
    steps: [
      {
        type: 'model_output',
        content: [
          { type: 'text', text: 'here' },
          { type: 'video', data, mime_type: 'video/mp4' },
        ],
      },
    ],
  });
  it('decodes the base64 data of a completed interaction', () => {
    const bytes = Buffer.from('\x00\x00\x00\x20ftypisom', 'latin1');
    expect(omniInlineVideo(inline(bytes.toString('base64')))).toEqual({ bytes, mimeType: 'video/mp4' });
  });
  it.each<[string, unknown]>([
    ['in progress', inline('AAAA', 'in_progress')],
    ['a Files URI', { status: 'completed', steps: [VIDEO] }],
    ['empty data', inline('')],
    ['data that is not text', inline(12)],
    ['no body', null],
  ])('finds none in %s', (_name, body) => {
    expect(omniInlineVideo(body)).toBeNull();
  });
});

describe('buildOmniCreateBody', () => {
  const image = { bytesBase64Encoded: 'UE5H', mimeType: 'image/png' };
  it('sends a text prompt as input, the shape in response_format, in the background and stored', () => {
    expect(
      buildOmniCreateBody('gemini-omni-1.1-flash', { prompt: 'a kite', durationSeconds: 6, aspectRatio: '9:16', resolution: '720p' }),
    ).toEqual({
      model: 'gemini-omni-1.1-flash',
      input: 'a kite',
      response_format: { type: 'video', aspect_ratio: '9:16', resolution: '720p', duration: '6s', delivery: 'uri' },
      background: true,
      store: true,
    });
  });
  it('sends images as content blocks; a last frame makes it image_to_video', () => {
    const body = buildOmniCreateBody('m', {
      prompt: 'p',
      durationSeconds: 8,
      aspectRatio: '16:9',
      resolution: '1080p',
      image,
      lastFrame: image,
    });
    expect(body.input).toEqual([
      { type: 'text', text: 'p' },
      { type: 'image', data: 'UE5H', mime_type: 'image/png' },
      { type: 'image', data: 'UE5H', mime_type: 'image/png' },
    ]);
    expect(body.generation_config).toEqual({ video_config: { task: 'image_to_video' } });
  });
});
