import { Body, Controller, Get, Head, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { BETA_MODELS, BetaCapability } from '../beta-request';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { BetaSimulatorStore } from './beta-simulator.store';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { ownValue } from '../../../common/runtime/own-value';

/** The sample MP4 shipped under src/simulator/assets (copied to dist by scripts/build.js). */

type Media = { type?: unknown; url?: unknown };
type SubmitBody = { model?: unknown; input?: { prompt?: unknown; media?: unknown }; parameters?: Record<string, unknown> };

/**
 * The embedded family B provider (docs/upstream-protocols.md, Family B) under /simulator/beta:
 * Bearer `simulator-key`, `X-DashScope-Async: enable` on submit, time-based task states, signed
 * video links serving a real MP4. Failure triggers are listed in BetaSimulatorStore.
 */
@ApiExcludeController()
@Controller('simulator/beta')
export class BetaSimulatorController {
  constructor(private readonly store: BetaSimulatorStore) {}

  @Post('api/v1/services/aigc/video-generation/video-synthesis')
  async submit(@Req() req: Request, @Res() res: Response, @Body() body: SubmitBody): Promise<void> {
    if (!this.authorized(req, res)) return;
    if (req.header('x-dashscope-async') !== 'enable') {
      return void fail(res, 403, 'AccessDenied', 'current user api does not support synchronous calls');
    }
    const capability = ownValue(BETA_MODELS, String(body?.model));
    if (!capability) return void fail(res, 400, 'InvalidParameter', 'Model not exist.');
    const prompt = body.input?.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      return void fail(
        res,
        400,
        'BadRequest.EmptyInput',
        'Required parameter(s) missing or invalid, please check the request parameters: input.prompt',
      );
    if (prompt.includes('[simulate:reject]')) return void fail(res, 400, 'InvalidParameter', 'The request is invalid. (simulated)');
    if (prompt.includes('[simulate:busy]'))
      return void fail(res, 429, 'Throttling.RateQuota', 'Requests rate limit exceeded, please try again later. (simulated)');
    const media = Array.isArray(body.input?.media) ? (body.input.media as Media[]) : [];
    const problem = mediaProblem(capability, media) ?? parameterProblem(capability, body.parameters ?? {});
    if (problem) return void fail(res, 400, 'InvalidParameter', problem);
    const parameters = body.parameters ?? {};
    const task = await this.store.create({
      model: String(body.model),
      prompt,
      duration: typeof parameters.duration === 'number' ? parameters.duration : undefined,
      resolution: typeof parameters.resolution === 'string' ? parameters.resolution : undefined,
      ratio: typeof parameters.ratio === 'string' ? parameters.ratio : undefined,
      inputVideo: capability === 'video-edit',
    });
    res.status(200).json({ request_id: randomUUID(), output: { task_id: task.id, task_status: 'PENDING' } });
  }

  @Get('api/v1/tasks/:id')
  async query(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!this.authorized(req, res)) return;
    res.json(await this.store.query(id, `${req.protocol}://${req.get('host')}`));
  }

  @Get('videos/:file')
  @Head('videos/:file')
  async video(
    @Res() res: Response,
    @Param('file') file: string,
    @Query('Expires') expires = '',
    @Query('Signature') signature = '',
  ): Promise<void> {
    const id = file.replace(/\.mp4$/, '');
    if (!(await this.store.verify(id, expires, signature))) {
      res
        .status(403)
        .type('application/xml')
        .send(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired or the signature does not match.</Message></Error>',
        );
      return;
    }
    if (existsSync(SAMPLE_VIDEO_PATH)) return void res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
    res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
  }

  private authorized(req: Request, res: Response): boolean {
    if (req.header('authorization') === `Bearer ${SIMULATOR_API_KEY}`) return true;
    fail(res, 401, 'InvalidApiKey', 'Invalid API-key provided.');
    return false;
  }
}

function fail(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ request_id: randomUUID(), code, message });
}

/** The provider's media rules per model. */
function mediaProblem(capability: BetaCapability, media: Media[]): string | null {
  const count = (type: string) => media.filter((element) => element?.type === type).length;
  if (media.some((element) => typeof element?.url !== 'string' || !element.url)) return 'every input.media element needs a url';
  switch (capability) {
    case 't2v':
      return media.length ? 'text-to-video takes no input.media' : null;
    case 'i2v':
      return count('first_frame') === 1 && media.length === 1 ? null : 'image-to-video needs exactly one first_frame';
    case 'r2v':
      return count('reference_image') >= 1 && count('reference_image') <= 9 && count('reference_image') === media.length
        ? null
        : 'reference-to-video needs 1 to 9 reference_image';
    default:
      return count('video') === 1 && count('reference_image') <= 5 && media.length === count('video') + count('reference_image')
        ? null
        : 'video-edit needs exactly one video and at most 5 reference_image';
  }
}

function parameterProblem(capability: BetaCapability, parameters: Record<string, unknown>): string | null {
  if (parameters.resolution !== undefined && !['720P', '1080P'].includes(String(parameters.resolution)))
    return 'parameters.resolution must be 720P or 1080P';
  if ((capability === 'i2v' || capability === 'video-edit') && parameters.ratio !== undefined)
    return `parameters.ratio is not supported by ${capability}`;
  if (capability === 'video-edit' && parameters.duration !== undefined) return 'parameters.duration is not supported by video-edit';
  const duration = parameters.duration;
  if (duration !== undefined && (typeof duration !== 'number' || duration < 3 || duration > 15))
    return 'parameters.duration must be between 3 and 15';
  return null;
}
