import { CreateKeyDto, UpdateKeyDto } from '../dto/admin-user.dto';

/** A customer issues keys for themself with the same fields and rules as an admin does for them. */
export class CustomerCreateKeyDto extends CreateKeyDto {}

/** And changes them with the same fields and rules. */
export class CustomerUpdateKeyDto extends UpdateKeyDto {}
