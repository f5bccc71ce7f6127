import { Body, Controller, Get, Head, Param, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { OPENAI_SIMULATOR_MODELS, OpenAiSimulatorStore } from './openai-simulator.store';

const SECONDS = ['4', '8', '12'];
const SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'];

/**
 * The embedded OpenAI-compatible Videos API (docs/upstream-protocols.md, Family O) under
 * /simulator/openai: Bearer `simulator-key`, JSON or multipart submits, time-based states, the
 * sample MP4 as content. `[simulate:reject]` in the prompt is a 400, `[simulate:busy]` a 429.
 */
@ApiExcludeController()
@Controller('simulator/openai')
export class OpenAiSimulatorController {
  constructor(private readonly store: OpenAiSimulatorStore) {}

  @Post('videos')
  @UseInterceptors(FileInterceptor('input_reference', { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 10 } }))
  async create(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown> | undefined): Promise<void> {
    if (!authorized(req, res)) return;
    const { model, prompt } = body ?? {};
    const seconds = String(body?.seconds ?? '4');
    const size = String(body?.size ?? '720x1280');
    if (typeof model !== 'string' || !OPENAI_SIMULATOR_MODELS.includes(model))
      return fail(res, 400, 'invalid_value', 'model', 'Invalid model.');
    if (typeof prompt !== 'string' || prompt.trim() === '') return fail(res, 400, 'invalid_value', 'prompt', 'Missing prompt.');
    if (!SECONDS.includes(seconds))
      return fail(res, 400, 'invalid_value', 'seconds', `Invalid seconds: must be one of ${SECONDS.join(', ')}.`);
    if (!SIZES.includes(size)) return fail(res, 400, 'invalid_value', 'size', 'Invalid size.');
    if (prompt.includes('[simulate:reject]'))
      return fail(res, 400, 'moderation_blocked', null, 'Your request was blocked by our moderation system. (simulated)');
    if (prompt.includes('[simulate:busy]')) {
      res.setHeader('Retry-After', '5');
      return fail(res, 429, 'rate_limit_exceeded', null, 'Too many concurrent requests. (simulated)');
    }
    res.status(200).json(await this.store.create({ model, prompt, seconds, size }));
  }

  @Get('videos')
  async list(@Req() req: Request, @Res() res: Response, @Query('limit') limit = '20'): Promise<void> {
    if (!authorized(req, res)) return;
    const data = await this.store.list(Math.max(1, Math.min(100, Number(limit) || 20)));
    res.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false });
  }

  @Get('videos/:id')
  async get(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    if (!authorized(req, res)) return;
    const video = await this.store.get(id);
    if (!video) return fail(res, 404, null, null, `Video with id '${id}' not found.`);
    res.json(video);
  }

  @Get('videos/:id/content')
  @Head('videos/:id/content')
  async content(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Query('variant') variant = 'video'): Promise<void> {
    if (!authorized(req, res)) return;
    const video = await this.store.get(id);
    if (!video) return fail(res, 404, null, null, `Video with id '${id}' not found.`);
    if (variant !== 'video') return fail(res, 404, null, 'variant', 'No such variant.');
    if (video.status !== 'completed') return fail(res, 400, 'invalid_request', null, 'Video is not ready yet.');
    if (!existsSync(SAMPLE_VIDEO_PATH))
      return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }
}

function authorized(req: Request, res: Response): boolean {
  if (req.header('authorization') === `Bearer ${SIMULATOR_API_KEY}`) return true;
  fail(res, 401, 'invalid_api_key', null, 'Incorrect API key provided.');
  return false;
}

function fail(res: Response, status: number, code: string | null, param: string | null, message: string): void {
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'invalid_request_error';
  res.status(status).json({ error: { message, type, param, code } });
}
