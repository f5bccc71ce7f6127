import { Inject, Injectable } from '@nestjs/common';
import { assertModelAllowed } from '../auth/api-keys.service';
import { AppError } from '../common/errors/app-error';
import { gatewayHopsOf } from '../common/http/gateway-hops';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { FamilyDefinition, SubmitForm, SubmitInput } from '../families/family';
import { FamilyRegistry } from '../families/family-registry';
import { refuseAssetReferences } from './asset-reference-rule';
import { commonFieldsOf, namingSentDurationField } from './submit-common-fields';
import type { SubmitHeaders } from './submit-headers';
import type { TaskEntity } from './task.entity';
import type { Caller } from './task-draft';
import { TaskSubmitService } from './task-submit.service';
import { TaskSubmitFields } from './task-submit-fields';

/** The task record's idempotency_key column. */
const MAX_IDEMPOTENCY_KEY = 255;
const FORM_PATHS: Record<SubmitForm, string> = { flat: '/v1/videos', unified: '/v1/video/generations' };

/**
 * The one submit path of both surfaces, for every family, once each and in this order: the
 * gateway hops (a chain of gateways that loops ends here), the Idempotency-Key, the fields every
 * family shares (SubmitCommonFieldsDto), the model's family, the key's model allowlist,
 * verified-asset references, the
 * fields other modules own (`callback_url`), the family's request schema (400s naming the field, `seconds` when the
 * client sent that); then TaskSubmitService prices, charges, records and sends the task. The caller
 * was authenticated by the surface's guard.
 */
@Injectable()
export class SubmitPipeline {
  constructor(
    private readonly families: FamilyRegistry,
    private readonly tasks: TaskSubmitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fields: TaskSubmitFields,
  ) {}

  async submit(input: SubmitInput, caller: Caller, headers: SubmitHeaders): Promise<TaskEntity> {
    const gatewayHops = gatewayHopsOf(headers.gatewayHops, this.config.maxGatewayHops);
    const { idempotencyKey } = headers;
    assertIdempotencyKey(idempotencyKey);
    const { model: name, body, durationField } = await commonFieldsOf(input.body);
    const { family, model } = await this.familyServing(name, input.form);
    if (caller.apiKey) assertModelAllowed(caller.apiKey, model);
    if (!family.takesVerifiedAssets) refuseAssetReferences(body, name, this.families.assetModels());
    // Fields of other modules (`callback_url`) are checked here, before any charge, and never reach the family's schema.
    const { body: familyBody, recorders } = await this.fields.take(body, caller);
    const { draft, release } = await this.families
      .draftsOf(family.platform)
      .prepare(model, { ...input, body: familyBody }, caller)
      .catch((error: unknown) => {
        throw namingSentDurationField(error, durationField);
      });
    try {
      return await this.tasks.submit({ ...draft, idempotencyKey, gatewayHops, recordWithTask: recorders }, caller);
    } finally {
      release?.();
    }
  }

  private async familyServing(name: string, form: SubmitForm): Promise<{ family: FamilyDefinition; model: string }> {
    const found = await this.families.forModel(name);
    if (found && found.family.forms.includes(form)) return found;
    // The flat form is the one OpenAI clients try any model on: tell them where the model is served.
    const elsewhere = found?.family.forms[0];
    if (form === 'flat' && elsewhere)
      throw AppError.invalid(`model ${name} is not served on ${FORM_PATHS.flat}; submit it on ${FORM_PATHS[elsewhere]}`, 'model');
    throw AppError.invalid(`unknown model: ${name}`, 'model');
  }
}

/** One rule on both surfaces: absent is fine; present, it is 1 to 255 characters (an empty header is a 400, never ignored). */
function assertIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY)) {
    throw AppError.invalid(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, 'Idempotency-Key');
  }
}
