import {
  Body,
  CallHandler,
  CanActivate,
  Controller,
  Get,
  Header,
  HttpCode,
  Injectable,
  NestInterceptor,
  Param,
  ParseIntPipe,
  PipeTransform,
  Post,
  Req,
  Res,
  Type,
  UploadedFiles,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
} from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AllExceptionsFilter } from '../common/errors/all-exceptions.filter';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { RequestValidationPipe } from '../common/http/validation';
import { GenerationsController } from '../generations/generations.controller';
import { InputReferenceInterceptor } from '../videos/input-reference.interceptor';
import { VideosController } from '../videos/videos.controller';
import { checkGlobalEnhancers, HotDispatchDriftError, hotRouteHandler } from './hot-route-contract';
import { HOT_DISPATCH_APPLIES } from './hot-routes';

@Injectable()
class ThrottleGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class TrimPipe implements PipeTransform {
  transform(value: unknown): unknown {
    return value;
  }
}

@Injectable()
class TimingInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle();
  }
}

class SubmitDto {
  model: string;
}

const request = (fields: Partial<AuthenticatedRequest> & { files?: unknown } = {}) => fields as AuthenticatedRequest;
const handler = <T extends object>(controller: Type<T>, method: keyof T & string) =>
  hotRouteHandler(controller, method, Object.create(controller.prototype as object) as T, HOT_DISPATCH_APPLIES);
const echo = (...args: unknown[]) => Promise.resolve(args);

/** What the hot dispatch would call: the real controllers' shape, with every drift the check must refuse. */
@UseGuards(ApiKeyGuard)
@Controller('v1/things')
class ThingsController {
  @Post()
  @HttpCode(200)
  @UseInterceptors(InputReferenceInterceptor)
  create(@Body() body: unknown, @UploadedFiles() files: unknown, @Req() req: AuthenticatedRequest) {
    return echo(body, files, req);
  }

  @Get(':thing_id')
  get(@Param('thing_id') id: string, @Req() req: AuthenticatedRequest) {
    return echo(id, req);
  }

  @Post('reordered')
  reordered(@Req() req: AuthenticatedRequest, @UploadedFiles() files: unknown, @Body() body: unknown) {
    return echo(req, files, body);
  }

  @Post('created')
  created(@Body() body: unknown) {
    return echo(body);
  }

  @Post('guarded')
  @UseGuards(ThrottleGuard)
  guarded(@Body() body: unknown) {
    return echo(body);
  }

  @Post('piped')
  @UsePipes(TrimPipe)
  piped(@Body() body: unknown) {
    return echo(body);
  }

  @Post('intercepted')
  @UseInterceptors(TimingInterceptor)
  intercepted(@Body() body: unknown) {
    return echo(body);
  }

  @Post('filtered')
  @UseFilters(new AllExceptionsFilter(), class OtherFilter {})
  filtered(@Body() body: unknown) {
    return echo(body);
  }

  @Get('param-pipe/:id')
  paramPipe(@Param('id', ParseIntPipe) id: number) {
    return echo(id);
  }

  @Post('dto')
  dto(@Body() body: SubmitDto) {
    return echo(body);
  }

  @Post('body-field')
  bodyField(@Body('model') model: unknown) {
    return echo(model);
  }

  @Get('other/:id')
  otherParam(@Param('thing_id') id: string) {
    return echo(id);
  }

  @Post('response')
  response(@Body() body: unknown, @Res() res: unknown) {
    return echo(body, res);
  }

  @Post('header')
  @Header('Cache-Control', 'no-store')
  header(@Body() body: unknown) {
    return echo(body);
  }

  @Get('*rest')
  wildcard() {
    return echo();
  }
}

@UseGuards(ApiKeyGuard, ThrottleGuard)
@Controller('v1/guarded')
class GuardedController {
  @Get(':id')
  get(@Param('id') id: string) {
    return echo(id);
  }
}

@UseInterceptors(TimingInterceptor)
@Controller('v1/intercepted')
class InterceptedController {
  @Get(':id')
  get(@Param('id') id: string) {
    return echo(id);
  }
}

describe('hotRouteHandler: the hot dispatch calls a controller method as Nest would, or the start stops', () => {
  it.each([
    { controller: VideosController, method: 'get', route: { method: 'GET', path: '/v1/videos/:id', status: 200 } },
    { controller: VideosController, method: 'create', route: { method: 'POST', path: '/v1/videos', status: 200 } },
    { controller: GenerationsController, method: 'get', route: { method: 'GET', path: '/v1/video/generations/:task_id', status: 200 } },
    { controller: GenerationsController, method: 'create', route: { method: 'POST', path: '/v1/video/generations', status: 200 } },
  ])('the real $controller.name $method passes, as $route.method $route.path answered $route.status', ({ controller, method, route }) => {
    expect(handler(controller as Type<object>, method as never)).toMatchObject(route);
  });

  it("passes each argument where the method's parameter decorators put it", async () => {
    const req = request({ body: { model: 'm' }, params: { thing_id: 'task_1' } });
    await expect(handler(ThingsController, 'create').call(req)).resolves.toEqual([req.body, undefined, req]);
    await expect(handler(ThingsController, 'get').call(req)).resolves.toEqual(['task_1', req]);
    const files = { input_reference: [] };
    await expect(handler(ThingsController, 'reordered').call(request({ ...req, files }))).resolves.toEqual([
      expect.objectContaining({ files }),
      files,
      req.body,
    ]);
  });

  it("reads the route's method, path (its parameters, matched as Express matches) and status from Nest's metadata", () => {
    const get = handler(ThingsController, 'get');
    expect(get).toMatchObject({ method: 'GET', path: '/v1/things/:thing_id', params: ['thing_id'], status: 200 });
    expect(get.pattern.exec('/V1/things/task_1/')?.[1]).toBe('task_1');
    expect(get.pattern.test('/v1/things/task_1/content')).toBe(false);
    expect(handler(ThingsController, 'created')).toMatchObject({ method: 'POST', path: '/v1/things/created', status: 201 });
  });

  it.each([
    ['guarded', '@UseGuards(ThrottleGuard) on the method'],
    ['piped', '@UsePipes(TrimPipe) on the method'],
    ['intercepted', '@UseInterceptors(TimingInterceptor) on the method'],
    ['filtered', '@UseFilters(OtherFilter) on the method'],
    ['paramPipe', '@Param(ParseIntPipe) on parameter 0 has pipes'],
    ['dto', '@Body() on parameter 0 is declared as SubmitDto'],
    ['bodyField', "@Body() on parameter 0 ('model') is not passed"],
    ['otherParam', "@Param() on parameter 0 ('thing_id') is not passed"],
    ['response', '@Res() on parameter 1'],
    ['header', '@Header is not reproduced'],
    ['wildcard', 'its path /v1/things/*rest has a segment (*rest)'],
  ] as const)('ThingsController.%s: refused, naming the class, the method and the decorator', (method, problem) => {
    const check = () => handler(ThingsController, method);
    expect(check).toThrow(HotDispatchDriftError);
    expect(check).toThrow(`cannot call ThingsController.${method}: ${problem}`);
  });

  it.each([
    { controller: GuardedController, problem: '@UseGuards(ThrottleGuard) on GuardedController' },
    { controller: InterceptedController, problem: '@UseInterceptors(TimingInterceptor) on InterceptedController' },
  ])("an enhancer on the method's controller counts too: $controller.name", ({ controller, problem }) => {
    expect(() => handler(controller as Type<{ get(): unknown }>, 'get')).toThrow(problem);
  });

  it('the message is one line that says what to do', () => {
    expect(() => handler(ThingsController, 'guarded')).toThrow(
      new HotDispatchDriftError(
        'The hot dispatch (src/http/hot-routes.ts) cannot call ThingsController.guarded: @UseGuards(ThrottleGuard) on the method is not ' +
          'applied by it; apply it there and list it in HOT_DISPATCH_APPLIES, or take the route out of the hot dispatch',
      ),
    );
  });
});

describe('checkGlobalEnhancers: a global enhancer the hot dispatch does not apply stops the start', () => {
  const config = () => {
    const app = new ApplicationConfig();
    app.addGlobalFilter(new AllExceptionsFilter());
    app.addGlobalRequestPipe(new InstanceWrapper({ metatype: RequestValidationPipe, instance: new RequestValidationPipe() }));
    return app;
  };

  it("the gateway's own (the exception filter, APP_PIPE's validation pipe) pass", () => {
    expect(() => checkGlobalEnhancers(config(), HOT_DISPATCH_APPLIES)).not.toThrow();
  });

  it.each([
    [
      'an APP_GUARD',
      (app: ApplicationConfig) => app.addGlobalRequestGuard(new InstanceWrapper({ instance: new ThrottleGuard() })),
      'global guard ThrottleGuard',
    ],
    [
      'useGlobalInterceptors',
      (app: ApplicationConfig) => app.addGlobalInterceptor(new TimingInterceptor()),
      'global interceptor TimingInterceptor',
    ],
    ['useGlobalPipes', (app: ApplicationConfig) => app.addGlobalPipe(new TrimPipe()), 'global pipe TrimPipe'],
    ['a global prefix', (app: ApplicationConfig) => app.setGlobalPrefix('api'), 'global prefix api'],
  ] as const)('%s is refused', (_what, add, problem) => {
    const app = config();
    add(app);
    expect(() => checkGlobalEnhancers(app, HOT_DISPATCH_APPLIES)).toThrow(new RegExp(`^The hot dispatch .* bypasses the ${problem}`));
  });
});
