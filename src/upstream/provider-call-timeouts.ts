/** How long a create call may take, in the families that set no timeout of their own for it. */
export const CREATE_CALL_TIMEOUT_MS = 60_000;

/** How long any other call to a provider may take (a query, a cancel, a probe, a file lookup). */
export const QUERY_CALL_TIMEOUT_MS = 15_000;
