/**
 * The deadline of a suspended thread whose wait is not known yet (a fork of a suspended head, a record
 * rebuilt by recover, a thread suspended before the ref store kept deadlines): the next pass of due work
 * reads its wait and sets the real deadline, or removes it when the suspension has none.
 */
export const DUE_AT_ONCE = "1970-01-01T00:00:00.000Z";
