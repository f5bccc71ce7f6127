import { ConsoleLogger } from '@nestjs/common';

/** Nest's own start-up chatter (module init, one line per route): useful when debugging, noise otherwise. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's console logger, with the framework's start-up lines moved from `log` to `debug`. */
export class QuietBootLogger extends ConsoleLogger {
  log(message: unknown, ...rest: unknown[]): void {
    const context = rest.length > 0 ? rest[rest.length - 1] : this.context;
    if (typeof context === 'string' && BOOT_CONTEXTS.has(context)) return this.debug(message, ...rest);
    super.log(message, ...rest);
  }
}
