import { Body, Controller, Delete, Get, Head, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { RUNWAY_MODELS } from '../runway-models';
import { RUNWAY_API_VERSION } from '../runway-protocol';
import { RunwaySimulatorStore } from './runway-simulator.store';

/**
 * The embedded Runway API (docs/upstream-protocols.md, Family Runway) under /simulator/runway:
 * Bearer `simulator-key` and `X-Runway-Version: 2024-11-06` on every call, text_to_video and
 * image_to_video, task queries, DELETE to cancel, and the sample MP4 at a signed output link
 * (no key, like Runway's CloudFront links). In the prompt: `[simulate:reject]` is a validation
 * 400, `[simulate:busy]` a 429, `[simulate:credits]` the no-credits 400.
 */
@ApiExcludeController()
@Controller('simulator/runway')
export class RunwaySimulatorController {
  constructor(private readonly store: RunwaySimulatorStore) {}

  @Post('v1/text_to_video')
  async textToVideo(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown> | undefined): Promise<void> {
    await this.create(req, res, body ?? {}, false);
  }

  @Post('v1/image_to_video')
  async imageToVideo(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown> | undefined): Promise<void> {
    await this.create(req, res, body ?? {}, true);
  }

  @Get('v1/tasks/:id')
  async get(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    const task = await this.store.get(
      id,
      (key, token) => `${req.protocol}://${req.get('host')}/simulator/runway/outputs/${key}.mp4?_jwt=${token}`,
    );
    if (!task) return void res.status(404).json({ error: 'Task not found' });
    res.json(task);
  }

  @Delete('v1/tasks/:id')
  async cancel(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    if ((await this.store.cancelOrDelete(id)) === null) return void res.status(404).json({ error: 'Task not found' });
    res.status(204).end();
  }

  @Get('outputs/:file')
  @Head('outputs/:file')
  async output(@Res() res: Response, @Param('file') file: string, @Query('_jwt') token: string | undefined): Promise<void> {
    const id = file.replace(/\.mp4$/, '');
    const expected = await this.store.tokenOf(id);
    if (!expected || token !== expected) return void res.status(403).type('text/plain').send('Forbidden');
    if (!existsSync(SAMPLE_VIDEO_PATH))
      return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }

  private async create(req: Request, res: Response, body: Record<string, unknown>, image: boolean): Promise<void> {
    if (!authorized(req, res)) return;
    const { model, promptText = '' } = body;
    const rules = typeof model === 'string' ? RUNWAY_MODELS[model] : undefined;
    if (!rules || (!image && !rules.textToVideo)) return invalid(res, 'invalid_value', ['model']);
    if (image && body.promptImage === undefined) return invalid(res, 'invalid_type', ['promptImage']);
    if (typeof body.duration !== 'number' || !rules.durations.includes(body.duration)) return invalid(res, 'invalid_value', ['duration']);
    if (!(image ? rules.imageRatios : rules.textRatios).includes(String(body.ratio))) return invalid(res, 'invalid_value', ['ratio']);
    const prompt = String(promptText);
    if (prompt.includes('[simulate:reject]')) return invalid(res, 'custom', ['promptText']);
    if (prompt.includes('[simulate:credits]'))
      return void res.status(400).json({ error: 'You do not have enough credits to run this task.' });
    if (prompt.includes('[simulate:busy]'))
      return void res.status(429).setHeader('Retry-After', '5').json({ error: 'Too many requests. (simulated)' });
    res.status(200).json({ id: await this.store.create(model as string, prompt) });
  }
}

/** Runway's key and its API version header, on every call. */
function authorized(req: Request, res: Response): boolean {
  if (req.header('authorization') !== `Bearer ${SIMULATOR_API_KEY}`) {
    res.status(401).json({ error: 'Invalid API key. (simulated)' });
    return false;
  }
  if (req.header('x-runway-version') !== RUNWAY_API_VERSION) {
    res.status(400).json({ error: `The X-Runway-Version header must be ${RUNWAY_API_VERSION}. (simulated)` });
    return false;
  }
  return true;
}

function invalid(res: Response, code: string, path: string[]): void {
  res.status(400).json({
    error: 'Validation of body failed',
    issues: [{ code, path, message: 'Invalid input (simulated)' }],
    docUrl: 'https://docs.dev.runwayml.com/api',
  });
}
