import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { dirname, join } from 'node:path';
import { AppError } from '../common/app-error';

/** Next to this file in src/ (tests) and in dist/ (nest-cli copies src/console/public there). */
const PUBLIC_DIR = join(__dirname, 'public');
/** Browser libraries come from npm and are served by the gateway itself (no CDN). */
const UPLOT_DIR = dirname(require.resolve('uplot'));
const VENDOR_FILES: Record<string, string> = { 'uplot.esm.js': 'uPlot.esm.js', 'uplot.min.css': 'uPlot.min.css' };

/** Serves the web console: the page at /console, its scripts and styles under /console/assets. */
@ApiExcludeController()
@Controller('console')
export class ConsoleStaticController {
  @Get()
  @Header('Cache-Control', 'no-cache')
  page(@Res() res: Response): Promise<void> {
    return send(res, 'index.html', PUBLIC_DIR);
  }

  @Get('assets/*path')
  asset(@Req() req: Request, @Res() res: Response): Promise<void> {
    const path = req.params.path as unknown as string[] | string;
    return send(res, join('assets', ...(Array.isArray(path) ? path : [path])), PUBLIC_DIR);
  }

  @Get('vendor/:file')
  vendor(@Req() req: Request, @Res() res: Response): Promise<void> {
    const file = VENDOR_FILES[String(req.params.file)];
    if (!file) throw AppError.notFound('no such console file');
    return send(res, file, UPLOT_DIR);
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
