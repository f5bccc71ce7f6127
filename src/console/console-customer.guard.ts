import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import type { ConsoleRequest } from './console-request';

/** Customer console API: a signed-in customer's session; sets `req.user` like the API-key guard does. */
@Injectable()
export class ConsoleCustomerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    const session = req.consoleSession;
    if (!session) throw new AppError(ErrorCode.Unauthorized, 'sign in to the console first');
    if (session.role !== 'user' || !session.user)
      throw new AppError(ErrorCode.Forbidden, 'this page is for customer accounts; admins use the admin pages');
    req.user = session.user;
    return true;
  }
}
