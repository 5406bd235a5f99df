/**
 * What a client may name its request with, in a header we keep and echo (X-Request-Id, the
 * correlation id; Idempotency-Key of run.json and JobQ push): short, and safe in a log line,
 * an event and a key.
 */
export const CLIENT_CHOSEN_ID = /^[A-Za-z0-9._:-]{1,128}$/;
