// The classes of answer a receiver may give a webhook delivery (spec 4.3, 6.4,
// 6.6, 7): the places a rule about "any other status code", "no response" or
// "a failed delivery" binds. Each is a status code, a status with a header that
// could change a sender's mind (429 with Retry-After), a timeout or a reset.
// The sink provokes each with a probe (harness/sink/probes.ts).

/** Every answer class, in the order reports list them. */
export const ANSWER_CLASSES = [
  '201', '204', '302', '400', '401', '403', '404', '410', '413', '429', '429 with Retry-After',
  '500', '503', 'timeout', 'reset',
] as const;

export type AnswerClass = typeof ANSWER_CLASSES[number];

/**
 * The answer classes that are a status code: the places spec 6.4 binds ("Any
 * other status code triggers another attempt"). A timeout and a reset carry no
 * status code; spec 6.6 and 7 bind those (webhook.retry.after-timeout, after-reset).
 */
export const STATUS_ANSWER_CLASSES: readonly AnswerClass[] = ANSWER_CLASSES.filter(c => c !== 'timeout' && c !== 'reset');
