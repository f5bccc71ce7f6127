import { RequestMethod, type Type } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HOST_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PARAMTYPES_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
  VERSION_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/internal';
import type { ApplicationConfig } from '@nestjs/core';
import type { AuthenticatedRequest } from '../auth/authenticated-request';

/**
 * The enhancers the hot dispatch does itself, by class: wherever Nest would run one of these around a
 * method the hot dispatch calls (on the method, its controller or globally), the hot dispatch does its
 * work in its own way. Any other enhancer there stops the start.
 */
export interface HotDispatchApplies {
  guards: readonly Type<unknown>[];
  interceptors: readonly Type<unknown>[];
  pipes: readonly Type<unknown>[];
  filters: readonly Type<unknown>[];
}

/** A controller method as the hot dispatch calls it: Nest's route (method, path, status) and the arguments its parameter decorators ask for. */
export interface HotRouteHandler {
  method: 'GET' | 'POST';
  /** As Nest registers it (`/v1/videos/:id`); Express's req.route.path. */
  path: string;
  /** The path's parameter names, in the order of `pattern`'s groups. */
  params: readonly string[];
  /** Matches the path case-insensitively, with an optional trailing slash, as Express matches routes. */
  pattern: RegExp;
  /** The status Nest answers with (201 for a POST without @HttpCode). */
  status: number;
  call(req: AuthenticatedRequest): Promise<unknown>;
}

/** A hot route whose Nest route does something the hot dispatch would not: the gateway does not start. */
export class HotDispatchDriftError extends Error {
  override readonly name = 'HotDispatchDriftError';
}

type Extract = (req: AuthenticatedRequest) => unknown;
interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

const ENHANCERS = [
  { key: GUARDS_METADATA, decorator: '@UseGuards', kind: 'guards' },
  { key: INTERCEPTORS_METADATA, decorator: '@UseInterceptors', kind: 'interceptors' },
  { key: PIPES_METADATA, decorator: '@UsePipes', kind: 'pipes' },
  { key: EXCEPTION_FILTERS_METADATA, decorator: '@UseFilters', kind: 'filters' },
] as const;

/** Route metadata whose effect the hot dispatch does not reproduce at all. */
const NOT_REPRODUCED = [
  { key: HEADERS_METADATA, decorator: '@Header' },
  { key: REDIRECT_METADATA, decorator: '@Redirect' },
  { key: RENDER_METADATA, decorator: '@Render' },
  { key: SSE_METADATA, decorator: '@Sse' },
  { key: VERSION_METADATA, decorator: '@Version' },
] as const;

const PARAM_DECORATORS: Record<number, string> = {
  [RouteParamtypes.REQUEST]: '@Req()',
  [RouteParamtypes.RESPONSE]: '@Res()',
  [RouteParamtypes.NEXT]: '@Next()',
  [RouteParamtypes.BODY]: '@Body()',
  [RouteParamtypes.QUERY]: '@Query()',
  [RouteParamtypes.PARAM]: '@Param()',
  [RouteParamtypes.HEADERS]: '@Headers()',
  [RouteParamtypes.SESSION]: '@Session()',
  [RouteParamtypes.FILE]: '@UploadedFile()',
  [RouteParamtypes.FILES]: '@UploadedFiles()',
  [RouteParamtypes.HOST]: '@HostParam()',
  [RouteParamtypes.IP]: '@Ip()',
  [RouteParamtypes.RAW_BODY]: '@RawBody()',
};

/** Parameters Nest passes through its pipes (RouterExecutionContext.isPipeable, of the kinds taken here). */
const PIPED = new Set<number>([RouteParamtypes.BODY, RouteParamtypes.PARAM, RouteParamtypes.FILES]);
/**
 * The declared types of a piped parameter that the allowed pipes leave as they are: `unknown` or an
 * object type (Object), a path parameter's string. A DTO class would be validated by Nest, not here.
 */
const PASSED_AS_IS = new Set<unknown>([undefined, Object, String]);

const LITERAL_SEGMENT = /^[A-Za-z0-9_.~-]+$/;
const PARAM_SEGMENT = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * The controller method `name` of `controller` as the hot dispatch calls it, read from Nest's own route
 * metadata: its HTTP method, path and status, and its arguments from its parameter decorators (so a
 * reordered or added parameter is passed as Nest would pass it). Throws HotDispatchDriftError, naming
 * the class, the method and the decorator, when Nest would run anything around the method that
 * `applies` does not list, or pass an argument the hot dispatch cannot take as Nest does.
 */
export function hotRouteHandler<T extends object>(
  controller: Type<T>,
  name: keyof T & string,
  instance: T,
  applies: HotDispatchApplies,
): HotRouteHandler {
  const where = `${controller.name}.${name}`;
  const fail = (problem: string): never => {
    throw new HotDispatchDriftError(
      `The hot dispatch (src/http/hot-routes.ts) cannot call ${where}: ${problem}; ` +
        'apply it there and list it in HOT_DISPATCH_APPLIES, or take the route out of the hot dispatch',
    );
  };
  const method = (controller.prototype as Record<string, unknown>)[name];
  if (typeof method !== 'function') return fail('it is not a method');
  for (const { key, decorator, kind } of ENHANCERS) {
    for (const [target, on] of [
      [controller, `on ${controller.name}`],
      [method, 'on the method'],
    ] as const) {
      for (const enhancer of (Reflect.getMetadata(key, target) as unknown[] | undefined) ?? []) {
        if (!applies[kind].includes(classOf(enhancer) as Type<unknown>))
          fail(`${decorator}(${nameOf(enhancer)}) ${on} is not applied by it`);
      }
    }
  }
  for (const { key, decorator } of NOT_REPRODUCED) {
    const value: unknown =
      Reflect.getMetadata(key, method) ?? (key === VERSION_METADATA ? Reflect.getMetadata(key, controller) : undefined);
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) fail(`${decorator} is not reproduced by it`);
  }
  if (Reflect.getMetadata(HOST_METADATA, controller) !== undefined)
    fail(`@Controller({ host }) on ${controller.name} is not reproduced by it`);

  const httpMethod = RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as RequestMethod];
  if (httpMethod !== 'GET' && httpMethod !== 'POST') return fail(`its HTTP method (${httpMethod}) is neither GET nor POST`);
  const path = joinPath(Reflect.getMetadata(PATH_METADATA, controller), Reflect.getMetadata(PATH_METADATA, method));
  if (path === null) return fail('its path is not one plain path');
  const segments = path.split('/').slice(1);
  const params: string[] = [];
  let source = '^';
  for (const segment of segments) {
    const param = PARAM_SEGMENT.exec(segment);
    if (param) {
      params.push(param[1]);
      source += '\\/([^/]+)';
    } else if (LITERAL_SEGMENT.test(segment)) source += `\\/${segment.replace(/[.]/g, '\\.')}`;
    else return fail(`its path ${path} has a segment (${segment}) it does not match`);
  }
  const pattern = new RegExp(`${source}\\/?$`, 'i');

  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype, name) as unknown[] | undefined) ?? [];
  const routeArgs = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) as Record<string, RouteArg> | undefined) ?? {};
  const extract: Extract[] = Array.from({ length: Math.max(method.length, types.length) }, () => () => undefined);
  for (const [key, arg] of Object.entries(routeArgs)) {
    const at = `parameter ${arg.index}`;
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) fail(`the custom parameter decorator of ${at} is not applied by it`);
    const type = Number(key.split(':')[0]);
    const decorator = PARAM_DECORATORS[type] ?? `parameter decorator ${type}`;
    if (arg.pipes?.length) fail(`${decorator.replace('()', `(${arg.pipes.map(nameOf).join(', ')})`)} on ${at} has pipes it does not apply`);
    if (PIPED.has(type) && !PASSED_AS_IS.has(types[arg.index]))
      fail(`${decorator} on ${at} is declared as ${nameOf(types[arg.index])}, which Nest's pipes would validate and it would not`);
    extract[arg.index] =
      extractor(type, arg.data, params) ??
      fail(`${decorator} on ${at}${arg.data === undefined ? '' : ` ('${String(arg.data)}')`} is not passed by it`);
  }

  const code = Reflect.getMetadata(HTTP_CODE_METADATA, method) as number | undefined;
  const call = method as (...args: unknown[]) => Promise<unknown>;
  return {
    method: httpMethod,
    path,
    params,
    pattern,
    status: code ?? (httpMethod === 'POST' ? 201 : 200),
    // A method that throws or answers at once is answered as Nest answers it: through the promise.
    call: (req) => {
      try {
        return Promise.resolve(
          call.apply(
            instance,
            extract.map((read) => read(req)),
          ),
        );
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

/**
 * The global enhancers Nest runs around every route (APP_GUARD and the like, or app.useGlobal*), and the
 * application settings that change a route's path: any the hot dispatch does not apply stops the start.
 */
export function checkGlobalEnhancers(config: ApplicationConfig, applies: HotDispatchApplies): void {
  const fail = (problem: string): never => {
    throw new HotDispatchDriftError(
      `The hot dispatch (src/http/hot-routes.ts) bypasses ${problem}; ` +
        'apply it there and list it in HOT_DISPATCH_APPLIES, or take the routes out of the hot dispatch',
    );
  };
  // app.useGlobal*() holds instances; APP_GUARD and the like, Nest's wrappers of their providers.
  const provided = (wrappers: { instance: unknown; metatype: unknown }[]) =>
    wrappers.map((wrapper) => wrapper.instance ?? wrapper.metatype);
  const globals = {
    guards: [...config.getGlobalGuards(), ...provided(config.getGlobalRequestGuards())],
    interceptors: [...config.getGlobalInterceptors(), ...provided(config.getGlobalRequestInterceptors())],
    pipes: [...config.getGlobalPipes(), ...provided(config.getGlobalRequestPipes())],
    filters: [...config.getGlobalFilters(), ...provided(config.getGlobalRequestFilters())],
  };
  for (const kind of ['guards', 'interceptors', 'pipes', 'filters'] as const) {
    for (const enhancer of globals[kind]) {
      if (!applies[kind].includes(classOf(enhancer) as Type<unknown>))
        fail(`the global ${kind.slice(0, -1)} ${nameOf(enhancer)}, which it does not apply`);
    }
  }
  if (config.getGlobalPreRequestHooks().length > 0) fail('the global pre-request hooks');
  if (config.getGlobalPrefix()) fail(`the global prefix ${config.getGlobalPrefix()}`);
  if (config.getVersioning()) fail('versioning');
}

function extractor(type: number, data: unknown, params: readonly string[]): Extract | null {
  switch (type) {
    case RouteParamtypes.REQUEST:
      return data === undefined ? (req) => req : null;
    case RouteParamtypes.BODY:
      return data === undefined ? (req) => req.body : null;
    case RouteParamtypes.PARAM:
      return typeof data === 'string' && params.includes(data) ? (req) => req.params[data] : null;
    case RouteParamtypes.FILES:
      // multer sets it on a multipart request only; a JSON one leaves it unset.
      return data === undefined ? (req) => (req as { files?: unknown }).files : null;
    default:
      return null;
  }
}

/** `v1/videos` and `:id` as `/v1/videos/:id`; null for a list of paths. */
function joinPath(controllerPath: unknown, methodPath: unknown): string | null {
  if (typeof controllerPath !== 'string' || typeof methodPath !== 'string') return null;
  const parts = [controllerPath, methodPath].flatMap((part) => part.split('/')).filter(Boolean);
  return `/${parts.join('/')}`;
}

/** An enhancer as a decorator or a global list holds it: its class, or an instance of it. */
function classOf(enhancer: unknown): unknown {
  return typeof enhancer === 'function' ? enhancer : (enhancer as object | null)?.constructor;
}

function nameOf(value: unknown): string {
  const type = classOf(value);
  return typeof type === 'function' && type.name ? type.name : String(value);
}
