import { ApiProperty } from '@nestjs/swagger';

/** `detail_code` of a ledger row, documented once for the admin's and the customer's log lists. */
export const ApiLedgerDetailCode = (): PropertyDecorator =>
  ApiProperty({
    type: String,
    nullable: true,
    example: 'price',
    description:
      'what `detail` says, as a code for translation (price, refund_failed, released_rejected, opening_balance, top_up, top_up_by_admin, refused_<key refusal code>); null for free text',
  });

/** `detail_params` of a ledger row, documented once for the admin's and the customer's log lists. */
export const ApiLedgerDetailParams = (): PropertyDecorator =>
  ApiProperty({
    type: Object,
    nullable: true,
    example: { model: 'alpha/v6', resolution: '720p', seconds: 5, base: 5000, group: 'default', ratio: 1, audio: 0, fast_motion: 0 },
    description: "`detail_code`'s parameters",
  });
