// Only the configuration is loaded before it is checked: a wrong setting is answered in a fraction of a
// second, not after Nest, TypeORM and every module have loaded (several seconds). The rest is imported below.
import type { LogLevel } from '@nestjs/common';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';

const SEVERITY: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const RANK: Record<string, number> = { silent: 0, fatal: 1, error: 2, warn: 3, info: 4, debug: 5, trace: 6 };

/** Maps LOG_LEVEL (pino's names) onto Nest's logger levels. */
function nestLogLevels(level: string): LogLevel[] {
  return SEVERITY.slice(0, RANK[level] ?? 4);
}

function loadOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = loadOrExit();
  // Before anything else loads, so every span has its context; without the variable the SDK is never loaded.
  if (config.tracing) (await import('./telemetry/start-tracing')).startTracing(config.tracing);
  await import('reflect-metadata');
  const [{ NestFactory }, { AppModule }, { AdminTokenService }, { configureApp }, { ensureMysqlDatabase }, { SimulatorSeeder }] =
    await Promise.all([
      import('@nestjs/core'),
      import('./app.module'),
      import('./auth/admin-token.service'),
      import('./bootstrap'),
      import('./database/ensure-mysql-database'),
      import('./simulator/simulator-seeder.service'),
    ]);
  const [
    { checkPort, portProblem },
    { checkVideoStore },
    { checkRedis },
    { QuietBootLogger },
    { credentialsBlock, startupBanner },
    { GatewayExpressAdapter },
    { HotDispatchDriftError },
  ] = await Promise.all([
    import('./startup/check-port'),
    import('./startup/check-video-store'),
    import('./startup/check-redis'),
    import('./startup/quiet-boot-logger'),
    import('./startup/startup-banner'),
    import('./http/gateway-express-adapter'),
    import('./http/hot-route-contract'),
  ]);
  const database = await ensureMysqlDatabase(config.database, config.databaseQueryTimeoutMs);
  if (database.kind === 'unusable') {
    process.stderr.write(`${database.message}\n`);
    process.exit(1);
  }
  const startProblem = (await checkPort(config)) ?? (await checkVideoStore(config)) ?? (await checkRedis(config));
  if (startProblem) {
    process.stderr.write(`${startProblem}\n`);
    process.exit(1);
  }
  const rank = RANK[config.logLevel] ?? 4;
  const logger = new QuietBootLogger();
  logger.setLogLevels(nestLogLevels(config.logLevel));
  const app = await NestFactory.create(AppModule.forRoot(config), new GatewayExpressAdapter(), {
    bodyParser: false,
    logger: rank === 0 ? false : logger,
  });
  try {
    configureApp(app, config);
  } catch (error) {
    // A hot route that would skip what Nest runs around its method is a bug of this build: said in one line, no start.
    if (!(error instanceof HotDispatchDriftError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  try {
    await app.listen(config.port);
  } catch (error) {
    // Taken since checkPort: still one line naming PORT.
    const problem = portProblem(config.port, error);
    if (!problem) throw error;
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const seed = await app.get(SimulatorSeeder).seed(port);
  const generatedAdminToken = app.get(AdminTokenService).takeGeneratedToken();
  // At info the whole banner; at warn and error still the one-time secrets, which cannot be shown again.
  const lines =
    rank >= RANK.info
      ? startupBanner({ config, port, seed, generatedAdminToken, createdDatabase: database.kind === 'created' })
      : rank > 0
        ? credentialsBlock(generatedAdminToken, seed, config.publicBaseUrl)
        : [];
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
