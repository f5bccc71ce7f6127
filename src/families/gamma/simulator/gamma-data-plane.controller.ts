import { Body, Controller, Delete, Get, Head, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { GammaSimulatorStore } from './gamma-simulator.store';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';

/** The sample MP4 shipped under src/simulator/assets (copied to dist by scripts/build.js). */
const MODELS = ['gamma-2-0', 'gamma-2-0-fast'];
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];

type ContentItem = { type?: unknown; text?: unknown; image_url?: { url?: unknown }; role?: unknown };

/**
 * The embedded family C data plane (docs/upstream-protocols.md, Family C) under /simulator/gamma:
 * Bearer `simulator-key`, the provider's validation (including `asset://` references, which must
 * be active assets of the simulated control plane), time-based task states, a real MP4.
 * A prompt containing `[simulate:fail]` makes the task fail.
 */
@ApiExcludeController()
@Controller('simulator/gamma')
export class GammaDataPlaneController {
  constructor(private readonly store: GammaSimulatorStore) {}

  @Post('api/v3/contents/generations/tasks')
  async submit(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    if (!authorized(req, res)) return;
    const problem = await submitProblem(body ?? {}, this.store);
    if (problem) return fail(res, 400, problem.code, problem.message);
    const content = body.content as ContentItem[];
    const task = await this.store.createTask(body, String(content.find((item) => item.type === 'text')?.text ?? ''));
    res.status(200).json({ id: task.id });
  }

  @Get('api/v3/contents/generations/tasks/:id')
  async query(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    const view = await this.store.taskView(id, `${req.protocol}://${req.get('host')}`);
    if (!view) return fail(res, 404, 'ResourceNotFound', `the task ${id} does not exist`);
    res.json(view);
  }

  /** Cancels a queued task, deletes a finished one's record; a running task cannot be cancelled. */
  @Delete('api/v3/contents/generations/tasks/:id')
  async cancel(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    const outcome = await this.store.cancelTask(id);
    if (!outcome) return fail(res, 404, 'ResourceNotFound', `the task ${id} does not exist`);
    if (outcome === 'running') return fail(res, 400, 'InvalidParameter', `the task ${id} is running and cannot be cancelled`);
    res.status(200).json({});
  }

  @Get('videos/:file')
  @Head('videos/:file')
  async video(@Res() res: Response, @Param('file') file: string): Promise<void> {
    if (!(await this.store.hasSucceeded(file.replace(/\.mp4$/, '')))) return fail(res, 404, 'ResourceNotFound', 'no such video');
    if (existsSync(SAMPLE_VIDEO_PATH)) return void res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
    res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
  }
}

function authorized(req: Request, res: Response): boolean {
  if (req.header('authorization') === `Bearer ${SIMULATOR_API_KEY}`) return true;
  fail(res, 401, 'AuthenticationError', 'the API key or AK/SK in the request is missing or invalid');
  return false;
}

function fail(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ error: { code, message, type: 'BadRequest' } });
}

/** The provider's checks of a submit body. */
async function submitProblem(body: Record<string, unknown>, store: GammaSimulatorStore): Promise<{ code: string; message: string } | null> {
  const invalid = (message: string) => ({ code: 'InvalidParameter', message });
  if (!MODELS.includes(String(body.model)))
    return { code: 'InvalidEndpointOrModel.NotFound', message: `the model ${String(body.model)} does not exist` };
  if (!Array.isArray(body.content) || body.content.length === 0) return invalid('content is required');
  const content = body.content as ContentItem[];
  const text = content.filter((item) => item?.type === 'text');
  if (text.length !== 1 || typeof text[0].text !== 'string' || !text[0].text.trim()) return invalid('content needs exactly one text item');
  const images = content.filter((item) => item?.type === 'image_url');
  if (images.length > 9) return invalid('at most 9 reference images');
  for (const image of images) {
    const url = image.image_url?.url;
    if (typeof url !== 'string' || !url) return invalid('image_url.url is required');
    if (!['reference_image', 'first_frame', 'last_frame'].includes(String(image.role))) return invalid('image_url.role is invalid');
    if (url.startsWith('asset://') && !(await store.isActiveAsset(url.slice('asset://'.length)))) {
      return invalid(`the asset ${url} does not exist or is not active`);
    }
  }
  const duration = body.duration ?? 5;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 4 || duration > 15)
    return invalid('duration must be 4 to 15');
  const resolution = body.resolution ?? '720p';
  if (!['480p', '720p', '1080p'].includes(String(resolution))) return invalid('resolution must be 480p, 720p or 1080p');
  if (resolution === '1080p' && body.model === 'gamma-2-0-fast') return invalid('gamma-2-0-fast does not support 1080p');
  if (body.ratio !== undefined && !RATIOS.includes(String(body.ratio))) return invalid('ratio is invalid');
  return null;
}
