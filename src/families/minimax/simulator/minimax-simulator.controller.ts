import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { MINIMAX_MODELS } from '../minimax-models';
import { MinimaxSimulatorStore } from './minimax-simulator.store';

const base = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } });

/**
 * The embedded MiniMax video API v1 (docs/upstream-protocols.md) under /simulator/minimax: Bearer
 * `simulator-key` on every API call (errors as HTTP 200 with `base_resp`, as MiniMax does), the
 * sample MP4 behind a pre-signed download URL. `[simulate:reject]` in the prompt is 1026 (input
 * moderation), `[simulate:busy]` 1002 (rate limit), `[simulate:broke]` 1008 (insufficient balance).
 */
@ApiExcludeController()
@Controller('simulator/minimax')
export class MinimaxSimulatorController {
  constructor(private readonly store: MinimaxSimulatorStore) {}

  @Post('v1/video_generation')
  async create(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown> | undefined): Promise<void> {
    if (!authorized(req, res)) return;
    const { model, prompt, duration = 6, resolution = '768P' } = body ?? {};
    if (typeof model !== 'string' || !MINIMAX_MODELS[model]) return void res.json({ task_id: '', ...base(2013, 'invalid params, model') });
    if (typeof prompt !== 'string' || prompt.length > 2000) return void res.json({ task_id: '', ...base(2013, 'invalid params, prompt') });
    if (duration !== 6 && duration !== 10) return void res.json({ task_id: '', ...base(2013, 'invalid params, duration') });
    if (!['512P', '768P', '1080P'].includes(String(resolution)) || (resolution === '1080P' && duration !== 6))
      return void res.json({ task_id: '', ...base(2013, 'invalid params, resolution') });
    if (!MINIMAX_MODELS[model].textToVideo && typeof body?.first_frame_image !== 'string')
      return void res.json({ task_id: '', ...base(2013, 'invalid params, first_frame_image') });
    if (prompt.includes('[simulate:reject]')) return void res.json({ task_id: '', ...base(1026, 'input new_sensitive (simulated)') });
    if (prompt.includes('[simulate:busy]')) return void res.json({ task_id: '', ...base(1002, 'rate limit exceeded (simulated)') });
    if (prompt.includes('[simulate:broke]')) return void res.json({ task_id: '', ...base(1008, 'insufficient balance (simulated)') });
    res.json({ task_id: await this.store.create({ prompt, resolution: String(resolution) }), ...base(0, 'success') });
  }

  @Get('v1/query/video_generation')
  async query(@Req() req: Request, @Res() res: Response, @Query('task_id') taskId: unknown): Promise<void> {
    if (!authorized(req, res)) return;
    const answer = typeof taskId === 'string' ? await this.store.query(taskId) : null;
    res.json(answer ?? { task_id: '', ...base(2013, 'invalid params, task not found') });
  }

  @Get('v1/files/retrieve')
  async retrieve(@Req() req: Request, @Res() res: Response, @Query('file_id') fileId: unknown): Promise<void> {
    if (!authorized(req, res)) return;
    if (typeof fileId !== 'string' || !(await this.store.fileReady(fileId)))
      return void res.json(base(2013, 'invalid params, file not found'));
    const url = `${req.protocol}://${req.get('host')}/simulator/minimax/cdn/${fileId}/output.mp4?Expires=${Math.floor(Date.now() / 1000) + 32_400}`;
    res.json({
      file: {
        file_id: Number(fileId),
        bytes: 0,
        created_at: Math.floor(Date.now() / 1000),
        filename: 'output.mp4',
        purpose: 'video_generation',
        download_url: url,
      },
      ...base(0, 'success'),
    });
  }

  /** The "CDN": a pre-signed link, no key needed (as MiniMax's). */
  @Get('cdn/:fileId/output.mp4')
  async download(@Res() res: Response, @Param('fileId') fileId: string): Promise<void> {
    if (!(await this.store.fileReady(fileId))) return void res.status(404).type('text/plain').send('NoSuchKey');
    if (!existsSync(SAMPLE_VIDEO_PATH))
      return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }
}

/** MiniMax refuses a wrong key with HTTP 200 and 1004 (or 2049). */
function authorized(req: Request, res: Response): boolean {
  if (req.header('authorization') === `Bearer ${SIMULATOR_API_KEY}`) return true;
  res.json({ task_id: '', ...base(1004, 'login fail: Please carry the API secret key in the Authorization field of the request header') });
  return false;
}
