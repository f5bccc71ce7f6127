import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from './app-error';

/** Checks of a value's presence and type: when one fails, the range checks after it say nothing useful. */
const BASIC_CONSTRAINTS = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isIn'];

function firstProblem(errors: ValidationError[], prefix = ''): { field: string; message: string } {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      // class-validator lists the last decorator first: a missing field would read "must be shorter than 2048 characters".
      const basic = BASIC_CONSTRAINTS.find((name) => error.constraints![name]);
      const message = basic ? error.constraints[basic] : Object.values(error.constraints)[0];
      // class-validator names the property; make it the full dotted path.
      return { field, message: message.startsWith(error.property) ? field + message.slice(error.property.length) : message };
    }
    if (error.children?.length) return firstProblem(error.children, field);
  }
  return { field: prefix, message: 'invalid request' };
}

const exceptionFactory = (errors: ValidationError[]) => {
  const { field, message } = firstProblem(errors);
  return AppError.invalid(message, field);
};

/** Admin input: unknown fields are an error. */
export const strictValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory,
});

/** Client video submits: unknown fields are dropped (SDKs send extras), known ones are checked. */
export const lenientValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: false,
  transform: true,
  exceptionFactory,
});
