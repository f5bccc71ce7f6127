import { INestApplication } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import express from 'express';
import type { HelmetOptions } from 'helmet';
import pino from 'pino';
import { AccountRateLimiter } from './auth/account-rate-limiter';
import { AdminTokenService } from './auth/admin-token.service';
import { ApiKeysService } from './auth/api-keys.service';
import { authenticateAdminBeforeBody, authenticateApiKeyBeforeBody } from './auth/authenticate-before-body.middleware';
import { CATALOG_FILE_LIMIT_BYTES } from './catalog/catalog-entry.dto';
import { AllExceptionsFilter, expressErrorHandler } from './common/errors/all-exceptions.filter';
import { rejectDeepJson } from './common/http/json-depth';
import { requestLogStream } from './common/http/log-destination';
import { requestLogging } from './common/http/request-logging.middleware';
import { recordSecurityHeaders, securityHeaders } from './common/http/security-headers';
import type { AppConfig } from './config/app-config';
import { CONSOLE_SESSION_COOKIE } from './console/console-request';
import { exceptSignedContentLinks } from './storage/signed-content-link.middleware';
import { BodyMemoryBudget } from './http/body-memory-budget';
import { hasBody } from './common/http/request-body-kind';
import { DEFAULT_BODY_LIMIT, VIDEO_BODY_LIMIT_BYTES, videoSubmitJsonParser } from './http/body-parsers';
import { leanJsonBody } from './http/lean-json-body';
import { installHotRoutes } from './http/hot-routes';
import { refuseUnstorableText } from './http/unstorable-text.middleware';
import { answerRoutesWithSendJson } from './http/nest-json-replies';
import { MetricsRegistry } from './metrics/metrics-registry';
import { setupSwagger } from './swagger';
import { traceRequests } from './telemetry/request-spans';

const VIDEO_SUBMIT_PATHS = ['/v1/videos', '/v1/video/generations'];
/** Every route under these answers only to an API key (`/v1/callback` is the provider's redirect and needs none). */
const API_KEY_PATHS = [...VIDEO_SUBMIT_PATHS, '/v1/verification', '/v1/webhooks'];
const ADMIN_API_PATH = '/api/admin';
const CATALOG_IMPORT_PATH = `${ADMIN_API_PATH}/models/import`;
/** Where a console session cookie counts (and so where cookies are parsed at all). */
const COOKIE_PATHS = ['/console', ADMIN_API_PATH];

/** helmet's headers on every response: a strict CSP that lets the console load its own scripts, styles and media. */
const HELMET_OPTIONS: HelmetOptions = {
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
};

export interface ConfigureOptions {
  /** The task polls and JSON submits dispatched in front of Express's router and Nest's route layers (see hot-routes.ts); off only in tests that compare the two. */
  hotRoutes?: boolean;
}

/** Everything main.ts and the e2e tests both need on the app. */
export function configureApp(app: INestApplication, config: AppConfig, { hotRoutes = true }: ConfigureOptions = {}): void {
  // Request lines are written asynchronously, those of one turn of the event loop in one write; flushed at exit.
  const logger = pino({ level: config.logLevel, base: undefined }, config.logLevel === 'silent' ? undefined : requestLogStream());
  const server = app.getHttpAdapter().getInstance() as express.Express;
  server.disable('x-powered-by');
  // Only configured proxies may tell the client's address (X-Forwarded-For); by default none may.
  server.set('trust proxy', config.trustedProxies);
  const logRequests = requestLogging(logger);
  const writeSecurityHeaders = securityHeaders(recordSecurityHeaders(HELMET_OPTIONS));
  // Who is asking is settled before any body is read: an anonymous request costs no buffering.
  const authenticateBeforeBody = authenticateApiKeyBeforeBody(app.get(ApiKeysService), app.get(AccountRateLimiter));
  app.use(logRequests);
  app.use(writeSecurityHeaders);
  app.use(COOKIE_PATHS, cookieParser());
  // A signed content link (`<video src>`) carries no API key; the content route verifies the link itself.
  app.use(API_KEY_PATHS, exceptSignedContentLinks(authenticateBeforeBody));
  app.use(ADMIN_API_PATH, authenticateAdminBeforeBody(app.get(AdminTokenService), CONSOLE_SESSION_COOKIE));
  const bodyParsers = express.Router();
  // The simulated family C control plane checks request signatures over the exact body bytes.
  bodyParsers.use('/simulator/gamma-control', express.raw({ type: () => true, limit: DEFAULT_BODY_LIMIT }));
  const videoJsonVerify = rejectDeepJson();
  const videoJsonParser = videoSubmitJsonParser(videoJsonVerify);
  bodyParsers.use(VIDEO_SUBMIT_PATHS, videoJsonParser);
  // A catalog import reads the largest export the catalog may grow to (CATALOG_FILE_LIMIT_BYTES).
  bodyParsers.use(CATALOG_IMPORT_PATH, express.json({ limit: CATALOG_FILE_LIMIT_BYTES, verify: rejectDeepJson() }));
  bodyParsers.use(express.json({ limit: DEFAULT_BODY_LIMIT, verify: rejectDeepJson() }));
  bodyParsers.use(express.urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT }));
  // One budget for every body read at once (these parsers and multer's): a body reserves its share before it is read.
  const bodyBudget = new BodyMemoryBudget(config.bodyMemoryLimitBytes, app.get(MetricsRegistry));
  // Most API calls (task polls) carry no body: they skip the budget and the parsers in one step.
  const parseBodies = (req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (!hasBody(req)) return next();
    try {
      bodyBudget.admit(req, res);
    } catch (error) {
      return next(error);
    }
    bodyParsers(req, res, next);
  };
  app.use(parseBodies);
  // The hot JSON submits' bodies, read as videoJsonParser reads them without the router around it; anything else goes to parseBodies.
  const readHotBodies = leanJsonBody({
    fallback: parseBodies,
    admit: (req, res) => bodyBudget.admit(req, res),
    parser: videoJsonParser,
    paths: VIDEO_SUBMIT_PATHS,
    verify: videoJsonVerify,
    limitBytes: VIDEO_BODY_LIMIT_BYTES,
  });
  // Text the database cannot store (a NUL) is refused here, before any route reads it.
  app.use(refuseUnstorableText);
  app.use(expressErrorHandler);
  app.useGlobalFilters(new AllExceptionsFilter());
  // Every route's JSON answer through the one writer the hot routes and the error bodies use.
  answerRoutesWithSendJson(app.getHttpAdapter());
  // The task polls and the JSON submits, most of the traffic, run the same middlewares and controller methods without Express's router and Nest's per-route layers.
  if (hotRoutes) installHotRoutes(app, [logRequests, writeSecurityHeaders, authenticateBeforeBody, readHotBodies, refuseUnstorableText]);
  // Around the hot routes and Express alike; only when tracing is on (main.ts started it).
  traceRequests(app.getHttpServer());
  app.enableShutdownHooks();
  setupSwagger(app);
}
