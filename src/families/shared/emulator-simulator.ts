import { Controller, Inject, ModuleMetadata, Provider, Req, Res, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Clock } from '../../common/runtime/clock';
import { EmulatorReply, EmulatorRequest, emulatorRequestOf, sendEmulatorReply, type VideoSource } from '../simulator-shared/emulator-http';
import { simulatorVideo } from '../simulator-shared/simulator-video';
import { SimulatorRecords } from '../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../simulator-shared/simulator-state.module';

/** A family's emulator as the simulator mounts it: a request below the mount, and the mount's address for its links. */
export interface MountedEmulator {
  handle(request: EmulatorRequest, base: string): Promise<EmulatorReply>;
}

/** How an Express request below a mount becomes the request an emulator takes. */
export type EmulatorRequestReader = (req: Request, mount: string) => EmulatorRequest;

/**
 * One route of a simulator: the decorators declaring it, as they would stand on a method
 * (`[Get('cdn/:file'), Head('cdn/:file')]`), with how its requests are read when emulatorRequestOf
 * does not read all the emulator needs (family A's upload carries its parsed form).
 */
export type SimulatorRoute = MethodDecorator[] | { decorators: MethodDecorator[]; requestOf: EmulatorRequestReader };

export interface EmulatorController {
  serve(req: Request, res: Response, requestOf: EmulatorRequestReader): Promise<void>;
}

/**
 * The controller of /simulator/<platform>: every route given is the family's one emulator (or what
 * answers for it at this mount), handed the request below the mount and the mount's address on the
 * host the client called.
 */
export function emulatorController(
  platform: string,
  emulator: Type<MountedEmulator>,
  routes: SimulatorRoute[],
): new (emulator: MountedEmulator) => EmulatorController {
  const mount = `/simulator/${platform}`;
  class MountedEmulatorController implements EmulatorController {
    constructor(@Inject(emulator) private readonly emulator: MountedEmulator) {}

    async serve(req: Request, res: Response, requestOf: EmulatorRequestReader): Promise<void> {
      const reply = await this.emulator.handle(requestOf(req, mount), `${req.protocol}://${req.get('host')}${mount}`);
      sendEmulatorReply(res, reply);
    }
  }
  const prototype = MountedEmulatorController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const { decorators, requestOf } = Array.isArray(route) ? { decorators: route, requestOf: emulatorRequestOf } : route;
    const name = `route${index}`;
    prototype[name] = function (this: EmulatorController, req: Request, res: Response): Promise<void> {
      return this.serve(req, res, requestOf);
    };
    const parameters = [Req(), Res()].map(
      (decorate, at): MethodDecorator =>
        (target, key) =>
          decorate(target, key, at),
    );
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Object.defineProperty(prototype, name, Reflect.decorate([...decorators, ...parameters], prototype, name, descriptor));
  });
  Reflect.decorate([ApiExcludeController(), Controller(mount.slice(1))], MountedEmulatorController);
  return MountedEmulatorController;
}

/** What a family's emulator gets from the simulator: its records in the gateway's database, the clock, the sample video. */
export interface SimulatorState {
  records: SimulatorRecords;
  now: () => number;
  video: VideoSource;
}

/**
 * The module of a family's simulator (mounted with SIMULATOR=on): its controllers (one a mount),
 * its emulator made by `make` over the simulator's state (and the providers `inject` names, given
 * after it), and the `providers` its controllers need beside the emulator.
 */
export function emulatorSimulatorModule<E, D extends unknown[] = []>(simulator: {
  controllers: Type<unknown>[];
  emulator: Type<E>;
  make: (state: SimulatorState, ...deps: D) => E;
  inject?: { [K in keyof D]: Type<D[K]> };
  providers?: Provider[];
}): ModuleMetadata {
  const { controllers, emulator, make, inject = [], providers = [] } = simulator;
  return {
    imports: [SimulatorStateModule],
    controllers,
    providers: [
      {
        provide: emulator,
        inject: [SimulatorRecords, Clock, ...inject],
        useFactory: (records: SimulatorRecords, clock: Clock, ...deps: D) =>
          make({ records, now: () => clock.now(), video: simulatorVideo }, ...deps),
      },
      ...providers,
    ],
  };
}
