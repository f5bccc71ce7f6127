import { ParseIntPipe } from '@nestjs/common';
import { AppError } from '../errors/app-error';

/** Numeric `:id` path parameters of the admin API: a 400 that names the parameter, like any other bad input. */
export const idParamPipe = new ParseIntPipe({ exceptionFactory: () => AppError.invalid('id must be an integer', 'id') });
