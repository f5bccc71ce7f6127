import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../common/errors/app-error';
import { buildIconSprite, VENDOR_FILES } from './console-vendor-files';
import { ownValue } from '../common/runtime/own-value';

/** Next to this file in src/ (tests) and in dist/ (scripts/build.js copies src/console/public there). */
const PUBLIC_DIR = join(__dirname, 'public');

/** Serves the web console: the page at /console, its scripts and styles under /console/assets, npm libraries under /console/vendor. */
@ApiExcludeController()
@Controller('console')
export class ConsoleStaticController {
  /** Vendor files as served (read once: they change only with a new install). */
  private readonly vendorCache = new Map<string, string>();

  @Get()
  @Header('Cache-Control', 'no-cache')
  page(@Res() res: Response): Promise<void> {
    return send(res, 'index.html', PUBLIC_DIR);
  }

  @Get('assets/*path')
  asset(@Req() req: Request, @Res() res: Response): Promise<void> {
    const path = req.params.path;
    return send(res, join('assets', ...(Array.isArray(path) ? path : [path])), PUBLIC_DIR);
  }

  @Get('vendor/:file')
  vendor(@Req() req: Request, @Res() res: Response): void {
    const name = String(req.params.file);
    if (name === 'icons.svg')
      return this.sendCached(res, name, 'image/svg+xml', () =>
        buildIconSprite(JSON.parse(readFileSync(join(PUBLIC_DIR, 'assets', 'icons.json'), 'utf8')) as string[]),
      );
    const file = ownValue(VENDOR_FILES, name);
    if (!file) throw AppError.notFound('no such console file');
    this.sendCached(res, name, file.type, () => {
      const text = readFileSync(file.path, 'utf8');
      return file.rewrite ? file.rewrite(text) : text;
    });
  }

  private sendCached(res: Response, name: string, type: string, read: () => string): void {
    let body = this.vendorCache.get(name);
    if (body === undefined) this.vendorCache.set(name, (body = read()));
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(body);
  }
}

/** `send` refuses `..` and dotfiles under `root`, answers Range and conditional requests. */
function send(res: Response, path: string, root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.sendFile(path, { root, dotfiles: 'deny', headers: { 'Cache-Control': 'no-cache' } }, (error?: Error) => {
      if (!error) return resolve();
      if (res.headersSent) return resolve();
      reject(AppError.notFound('no such console file'));
    });
  });
}
