import { Body, Controller, Get, Head, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { klingTokenCode } from '../kling-jwt';
import { KLING_MODELS } from '../kling-models';
import type { KlingEndpoint } from '../kling-protocol';
import { KlingSimulatorStore } from './kling-simulator.store';

const ENDPOINTS: readonly string[] = ['text2video', 'image2video'];

/**
 * The embedded Kling API (docs/upstream-protocols.md, Family Kling) under /simulator/kling: an HS256
 * JWT signed with the simulator's key pair on every API call (401 with Kling's 1001-1004
 * otherwise), create and query per endpoint, the sample MP4 as the CDN video. `[simulate:reject]`
 * in the prompt is a 400/1301, `[simulate:busy]` a 429/1303.
 */
@ApiExcludeController()
@Controller('simulator/kling')
export class KlingSimulatorController {
  constructor(private readonly store: KlingSimulatorStore) {}

  @Post('v1/videos/:endpoint')
  async create(
    @Req() req: Request,
    @Res() res: Response,
    @Param('endpoint') endpoint: string,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (!this.authorized(req, res)) return;
    if (!ENDPOINTS.includes(endpoint)) return fail(res, 404, 1202, 'Not found');
    const { model_name: model, prompt = '', duration = '5', image } = body ?? {};
    if (typeof model !== 'string' || !Object.hasOwn(KLING_MODELS, model)) return fail(res, 400, 1201, 'model_name is invalid');
    if (typeof prompt !== 'string' || (endpoint === 'text2video' && prompt.trim() === ''))
      return fail(res, 400, 1201, 'prompt is required');
    if (duration !== '5' && duration !== '10') return fail(res, 400, 1201, 'duration must be "5" or "10"');
    if (endpoint === 'image2video' && (typeof image !== 'string' || image === '')) return fail(res, 400, 1201, 'image is required');
    if (prompt.includes('[simulate:reject]')) return fail(res, 400, 1301, 'Content security policy violation (simulated)');
    if (prompt.includes('[simulate:busy]')) return fail(res, 429, 1303, 'parallel task over resource pack limit (simulated)');
    const data = await this.store.create(endpoint as KlingEndpoint, prompt, duration);
    res.json({ code: 0, message: 'SUCCEED', request_id: randomUUID(), data });
  }

  @Get('v1/videos/:endpoint/:id')
  async get(@Req() req: Request, @Res() res: Response, @Param('endpoint') endpoint: string, @Param('id') id: string): Promise<void> {
    if (!this.authorized(req, res)) return;
    const base = `${req.protocol}://${req.get('host')}/simulator/kling/cdn`;
    const task = ENDPOINTS.includes(endpoint) ? await this.store.get(endpoint as KlingEndpoint, id, base) : null;
    if (!task) return fail(res, 404, 1203, 'task not found');
    res.json({ code: 0, message: 'SUCCEED', request_id: randomUUID(), data: task });
  }

  /** The "CDN" video: like Kling's, no key needed. */
  @Get('cdn/:file')
  @Head('cdn/:file')
  async video(@Res() res: Response, @Param('file') file: string): Promise<void> {
    const id = /^(\d{1,32})\.mp4$/.exec(file)?.[1];
    if (!id || !(await this.store.exists(id))) return void res.status(404).type('text/plain').send('not found');
    if (!existsSync(SAMPLE_VIDEO_PATH))
      return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }

  private authorized(req: Request, res: Response): boolean {
    // Real time, as the gateway signs with: a token is checked against the provider's own clock.
    const code = klingTokenCode(
      req.header('authorization'),
      (accessKey) => (accessKey === SIMULATOR_ACCESS_KEY ? SIMULATOR_SECRET_KEY : undefined),
      Date.now(),
    );
    if (code === 0) return true;
    fail(res, 401, code, 'Auth failed');
    return false;
  }
}

function fail(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ code, message, request_id: randomUUID() });
}
