import { mapKlingError } from './kling-errors';
import { klingKeyPair, klingTokenCode, signKlingJwt } from './kling-jwt';
import { buildKlingBody } from './kling-protocol';
import { mapKlingQuery } from './kling-query-mapping';
import type { KlingVideoRequestDto } from './kling-request.dto';
import { klingModelOf, settleKlingRequest } from './kling-task-rules';
import { KLING_BUILTIN_ENTRIES } from './kling-catalog';
import { builtinCatalogModel, refusedField } from '../shared/family.spec-support';

/** A builtin model's catalog entry and its Kling route, as the submit pipeline hands them over. */
const catalogModelOf = (model: string) => builtinCatalogModel(KLING_BUILTIN_ENTRIES, model);

const NOW = 1_774_711_071_000;
const settle = (model: string, body: Partial<KlingVideoRequestDto>, hasImage = false) =>
  settleKlingRequest(model, klingModelOf(catalogModelOf(model)), { model, ...body }, hasImage);

describe('Kling JWT', () => {
  it('signs a token Kling accepts for 30 min, valid from 5 s back, and refuses a wrong secret, an early or a late one', () => {
    const token = signKlingJwt('AK', 'SK', NOW);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toEqual({ iss: 'AK', exp: NOW / 1000 + 1800, nbf: NOW / 1000 - 5 });
    const secretOf = (ak: string) => (ak === 'AK' ? 'SK' : undefined);
    expect(klingTokenCode(`Bearer ${token}`, secretOf, NOW)).toBe(0);
    expect(klingTokenCode(`Bearer ${signKlingJwt('AK', 'other', NOW)}`, secretOf, NOW)).toBe(1002);
    expect(klingTokenCode(`Bearer ${token}`, secretOf, NOW - 60_000)).toBe(1003);
    expect(klingTokenCode(`Bearer ${token}`, secretOf, NOW + 1801_000)).toBe(1004);
    expect(klingTokenCode(undefined, secretOf, NOW)).toBe(1001);
  });

  it('reads the api_key as <access_key>:<secret_key> only', () => {
    expect(klingKeyPair('AK:S:K')).toEqual({ accessKey: 'AK', secretKey: 'S:K' });
    expect(klingKeyPair('no-colon')).toBeNull();
    expect(klingKeyPair(':SK')).toBeNull();
  });
});

describe('Kling request rules', () => {
  it('settles mode, ratio and duration from size, resolution or metadata.mode', () => {
    expect(settle('kling-v2-5-turbo', { prompt: 'p', size: '720x1280' })).toEqual({
      imageToVideo: false,
      duration: 5,
      mode: 'std',
      aspectRatio: '9:16',
      extra: {},
    });
    expect(settle('kling-v1-6', { prompt: 'p', metadata: { mode: 'pro', cfg_scale: 0.3 } })).toMatchObject({
      mode: 'pro',
      extra: { cfg_scale: 0.3 },
    });
    expect(settle('kling-v2-6', { prompt: 'p', duration: 10 })).toMatchObject({ mode: 'pro', duration: 10 });
    expect(settle('kling-v2-1', {}, true)).toEqual({ imageToVideo: true, duration: 5, mode: 'std', extra: {} });
  });

  it.each([
    ['kling-v2-1', { prompt: 'p' }, false, 'input_reference'],
    ['kling-v2-5-turbo', {}, false, 'prompt'],
    ['kling-v2-5-turbo', { prompt: 'p', duration: 6 }, false, 'duration'],
    ['kling-v2-6', { prompt: 'p', resolution: '720p' }, false, 'resolution'],
    ['kling-v2-1-master', { prompt: 'p', size: '1280x720' }, false, 'size'],
    ['kling-v2-5-turbo', { prompt: 'p', size: '1280x1024' }, false, 'size'],
    ['kling-v2-5-turbo', { prompt: 'p', size: '1920x1080', aspect_ratio: '9:16' }, false, 'aspect_ratio'],
    ['kling-v2-5-turbo', { prompt: 'p', seed: 1 }, false, 'seed'],
    ['kling-v2-5-turbo', { prompt: 'p', metadata: { image: 'x' } }, false, 'metadata.image'],
    ['kling-v2-5-turbo', { prompt: 'p', metadata: { mode: 'ultra' } }, false, 'metadata.mode'],
    ['kling-v2-6', { prompt: 'p', metadata: { sound: 'loud' } }, false, 'metadata.sound'],
    ['kling-v1-6', { prompt: 'p', metadata: { cfg_scale: 2 } }, false, 'metadata.cfg_scale'],
    ['kling-v1-6', { prompt: 'p', last_frame: 'http://x/b.png' }, false, 'last_frame'],
    ['kling-v1-6', { prompt: 'p', last_frame: 'http://x/b.png', resolution: '720p' }, true, 'last_frame'],
    ['kling-v3', { prompt: 'p', duration: 16 }, false, 'duration'],
    ['kling-v3-omni', { prompt: 'p', duration: 2 }, false, 'duration'],
    ['kling-v3-omni', { prompt: 'p', metadata: { image_list: [] } }, false, 'metadata.image_list'],
    [
      'kling-v3-omni',
      { prompt: 'p', metadata: { sound: 'on', video_list: [{ video_url: 'u', refer_type: 'feature' }] } },
      false,
      'metadata.sound',
    ],
    ['kling-v3-omni', { prompt: 'p', metadata: { video_list: [{ video_url: 'u', refer_type: 'base' }] } }, true, 'input_reference'],
    ['kling-v3', { prompt: 'p', metadata: { voice_list: [{ voice_id: 'v' }] } }, false, 'metadata.voice_list'],
    [
      'kling-v3',
      { prompt: 'p', duration: 10, metadata: { multi_shot: true, multi_prompt: [{ index: 1, prompt: 'a', duration: '5' }] } },
      false,
      'metadata.multi_prompt',
    ],
  ])('%s %j (image: %s) is refused naming %s', (model, body, hasImage, param) => {
    expect(refusedField(() => settle(model, body as Partial<KlingVideoRequestDto>, hasImage))).toBe(param);
  });
});

describe('Kling 3', () => {
  it('sends kling-v3-omni to omni-video with its frames in image_list, kling-v3 to text2video / image2video', () => {
    const omni = klingModelOf(catalogModelOf('kling-v3-omni'));
    expect(omni.omni).toBe(true);
    expect(klingModelOf(catalogModelOf('kling-v3')).omni).toBe(false);
    const { entry, route } = catalogModelOf('kling-v3');
    expect(klingModelOf({ entry, route: { ...route, options: { omni: true } } }).omni).toBe(true);
    expect(settle('kling-v3-omni', { prompt: 'p', duration: 12, resolution: '1080p', metadata: { sound: 'on' } })).toEqual({
      imageToVideo: false,
      duration: 12,
      mode: 'pro',
      aspectRatio: '16:9',
      extra: { sound: 'on' },
    });
    const body = buildKlingBody(
      {
        endpoint: 'omni-video',
        prompt: 'p',
        duration: 7,
        mode: 'std',
        image: { url: 'https://x.test/a.png' },
        imageTail: { staged: 'abc' },
        extra: { sound: 'off' },
      },
      'kling-v3-omni',
      () => 'QUJD',
    );
    expect(body).toEqual({
      sound: 'off',
      model_name: 'kling-v3-omni',
      mode: 'std',
      duration: '7',
      prompt: 'p',
      image_list: [
        { image_url: 'https://x.test/a.png', type: 'first_frame' },
        { image_url: 'QUJD', type: 'end_frame' },
      ],
    });
  });

  it('keeps final_unit_deduction as the provider usage, in its units', () => {
    const answer = {
      code: 0,
      data: {
        task_id: '1',
        task_status: 'succeed',
        final_unit_deduction: '4.5',
        task_result: { videos: [{ url: 'https://cdn.example.com/v.mp4' }] },
      },
    };
    expect(mapKlingQuery(answer)).toMatchObject({ state: 'succeeded', providerUsage: { unit: 'credits', amount: 4.5 } });
    expect(mapKlingQuery({ code: 0, data: { task_status: 'processing', final_unit_deduction: 'n/a' } }).providerUsage).toBeUndefined();
  });
});

describe('Kling errors and statuses', () => {
  it.each([
    [401, 1004, 'channel'],
    [429, 1101, 'channel'],
    [429, 1102, 'channel'],
    [403, 1103, 'channel'],
    [400, 1301, 'moderation'],
    [429, 1302, 'backpressure'],
    [429, 1303, 'backpressure'],
    [400, 1201, 'invalid_input'],
    [500, 5000, 'transient'],
    [502, undefined, 'transient'],
  ])('HTTP %s with code %s is %s', (status, code, kind) => {
    const error = mapKlingError(status, { code, message: 'secret text at http://10.0.0.1' }, '3', NOW);
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain('10.0.0.1');
  });

  it('maps submitted, processing, succeed and failed (moderation by its text, never shown), and takes anything else as transient', () => {
    const answer = (data: object) => ({ code: 0, message: 'SUCCEED', data: { task_id: '1', ...data } });
    expect(mapKlingQuery(answer({ task_status: 'submitted' })).state).toBe('queued');
    expect(mapKlingQuery(answer({ task_status: 'processing' })).state).toBe('running');
    expect(
      mapKlingQuery(answer({ task_status: 'succeed', task_result: { videos: [{ url: 'https://cdn.example.com/v.mp4' }] } })),
    ).toMatchObject({ state: 'succeeded', videoUrl: 'https://cdn.example.com/v.mp4' });
    expect(mapKlingQuery(answer({ task_status: 'failed', task_status_msg: 'Failure to pass the risk control system' })).failReason).toBe(
      'content moderation failed',
    );
    expect(mapKlingQuery(answer({ task_status: 'failed', task_status_msg: 'internal error at 10.0.0.1' })).failReason).toBe(
      'generation failed',
    );
    expect(() => mapKlingQuery(answer({ task_status: 'succeeded' }))).toThrow(/unexpected status/);
    expect(() => mapKlingQuery({ code: 5000 })).toThrow(/code 5000/);
  });
});

describe('Kling rules read the catalog entry', () => {
  const custom = (changes: Record<string, unknown>) => {
    const { entry, route } = catalogModelOf('kling-v2-6');
    return klingModelOf({ entry: { ...entry, id: 'kling-v3', ...changes }, route: { ...route, upstreamModel: 'kling-v3' } });
  };

  it("takes a new model's lengths, default and modes from its entry alone (kling-v3: 3 to 15 s)", () => {
    const v3 = custom({ durations: { min: 3, max: 15 }, defaultDuration: 5, resolutions: ['720p', '1080p'] });
    expect(settleKlingRequest('kling-v3', v3, { model: 'kling-v3', prompt: 'p', duration: 7 }, false)).toMatchObject({
      duration: 7,
      mode: 'std',
    });
    expect(settleKlingRequest('kling-v3', v3, { model: 'kling-v3', prompt: 'p' }, false)).toMatchObject({ duration: 5 });
    expect(() => settleKlingRequest('kling-v3', v3, { model: 'kling-v3', prompt: 'p', duration: 16 }, false)).toThrow(
      'duration must be a whole number of seconds from 3 to 15 for kling-v3',
    );
    const imageOnly = custom({ modes: ['image-to-video'] });
    expect(refusedField(() => settleKlingRequest('kling-v3', imageOnly, { model: 'kling-v3', prompt: 'p' }, false))).toBe(
      'input_reference',
    );
    const silent = custom({ audio: 'none' });
    expect(
      refusedField(() => settleKlingRequest('kling-v3', silent, { model: 'kling-v3', prompt: 'p', metadata: { sound: 'on' } }, false)),
    ).toBe('metadata.sound');
  });
});
