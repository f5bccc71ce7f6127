import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../common/http/validation';

@ApiSchema({ name: 'CallbackSecret' })
export class CallbackSecretDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5P4dBSkjBUs=',
    description: "The account's Standard Webhooks secret for every task's `callback_url`; shown only in this response",
  })
  secret: string;
}

/** The console's view of the callback secret (never the secret). */
@ApiSchema({ name: 'CallbackSecretState' })
export class CallbackSecretStateDto {
  @ApiProperty({ description: 'whether the account has a callback secret (a submit with `callback_url` needs one)' }) set: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'unix seconds' }) created_at: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'unix seconds of the last rotation; null if never rotated' })
  rotated_at: number | null;
}

export class CallbackDeliveriesQueryDto {
  @ApiPropertyOptional({ example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ', description: "only this task's callback attempts" })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(64)
  task_id?: string;
}
