import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { ErrorCode } from '../common/errors/app-error';
import type { ErrorSurface } from '../common/errors/error-body';
import { errorExample } from '../common/errors/error-examples';
import { cancelCapabilities } from '../families/family-docs';

/** Which providers stop which tasks, from the registered families' adapters. */
const CANCEL = cancelCapabilities();

/** What each surface's cancel route says in its own words; the rest of its documentation is shared. */
export interface CancelRouteDocs {
  surface: ErrorSurface;
  summary: string;
  /** The cancelled task's shape on this surface, and how its status reads there. */
  okType: Type<unknown>;
  okDescription: string;
  errorType: Type<unknown>;
  /** A finished status as this surface spells it, for the "already ended" example. */
  endedStatus: string;
  notFoundExample: Record<string, unknown>;
}

/** `POST …/{id}/cancel` on either surface: answers 200 with the cancelled task, 404 or 409. */
export function ApiCancelRoute(docs: CancelRouteDocs): MethodDecorator {
  const ended = errorExample(
    docs.surface,
    ErrorCode.Conflict,
    `task task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ has already ended (status: ${docs.endedStatus}); it cannot be cancelled`,
  );
  const cannotCancel = errorExample(
    docs.surface,
    ErrorCode.CancelNotSupported,
    'the provider of task task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ cannot cancel it now',
  );
  return applyDecorators(
    HttpCode(200),
    ApiOperation({
      summary: docs.summary,
      description:
        `Cancellable: a task its provider has not accepted yet; ${CANCEL.stops}. ` +
        'The gateway reads the task from its provider first: one the provider has finished ends as it finished (a 409 naming that status). ' +
        'A cancelled task sends `video.failed` to your webhooks. A cancel racing the task’s own end: exactly one of them wins.',
    }),
    ApiOkResponse({ type: docs.okType, description: docs.okDescription }),
    ApiNotFoundResponse({ type: docs.errorType, description: "Unknown task, or another account's task", example: docs.notFoundExample }),
    ApiConflictResponse({
      type: docs.errorType,
      description:
        '`conflict`: the task has already ended (the message names its status). `cancel_not_supported`: its provider cannot cancel it ' +
        `(${CANCEL.cannot}) or refused to; the task goes on and follows its provider`,
      examples: {
        ended: { summary: 'already ended', value: ended },
        not_supported: { summary: 'cancel_not_supported', value: cannotCancel },
      },
    }),
    ApiServiceUnavailableResponse({
      type: docs.errorType,
      description:
        'The provider could not be asked (or did not answer the cancel): nothing was charged or refunded; retry after `Retry-After`',
    }),
  );
}
