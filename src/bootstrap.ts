import { INestApplication, Logger } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import express from 'express';
import helmet from 'helmet';
import pino from 'pino';
import { AllExceptionsFilter, expressErrorHandler } from './common/all-exceptions.filter';
import { requestLogging } from './common/request-logging.middleware';
import type { AppConfig } from './config/app-config';
import { setupSwagger } from './swagger';

/** Video submits may carry data-URI images. */
export const VIDEO_BODY_LIMIT = '20mb';
const DEFAULT_BODY_LIMIT = '1mb';
const VIDEO_SUBMIT_PATHS = ['/v1/videos', '/v1/video/generations'];

/** Everything main.ts and the e2e tests both need on the app. */
export function configureApp(app: INestApplication, config: AppConfig): void {
  const logger = pino({ level: config.logLevel, base: undefined });
  const server = app.getHttpAdapter().getInstance() as express.Express;
  server.disable('x-powered-by');
  server.set('trust proxy', 'loopback');
  app.use(requestLogging(logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  // The simulated family C control plane checks request signatures over the exact body bytes.
  app.use('/simulator/gamma-control', express.raw({ type: () => true, limit: DEFAULT_BODY_LIMIT }));
  app.use(VIDEO_SUBMIT_PATHS, express.json({ limit: VIDEO_BODY_LIMIT }));
  app.use(express.json({ limit: DEFAULT_BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT }));
  app.use(expressErrorHandler);
  app.use(cookieParser());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();
  setupSwagger(app);
  Logger.log(`database: ${config.database.kind}; simulator: ${config.simulator ? 'on' : 'off'}`, 'Bootstrap');
}
