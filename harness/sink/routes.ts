// How the sink finds the checkout an attempt belongs to (its route: the plan,
// the registered key, the attempts so far) and which probe of the plan answers
// it: by the path slot `/hooks/{key}` when the sender posts there, else by the
// body's id. A cheap text search of the body's head, never a parse.
import { whereOf } from '../places/event-positions.ts';
import { probeFor, type CheckoutPlan, type ControlOutcome } from './plan.ts';
import type { Probe } from './probes.ts';

export interface Route {
  key: string; plan: CheckoutPlan; checkoutId: string; apiKey?: string; control?: ControlOutcome; count: number; lastFailed: boolean;
  /** Attempts so far at the plan's `failAt` place. */
  atPlace?: number;
  /** A checkout the passive sink planned by what it saw (not one the drive created); `released`: its plan's place never came. */
  passive?: { released: boolean };
}

// Not anchored: a tunnel (--public-sink-url) may keep a path prefix of its own.
export const HOOK_PATH = /\/hooks\/([A-Za-z0-9._-]{1,100})(?:[/?]|$)/;
// Routing by body is a cheap text search, not a parse: the first "id" (spec 2.2),
// else "referenceId" for the older variant of 2.5, which has no id.
export const BODY_ID = /"id"\s*:\s*"([^"\\]{1,200})"/;
export const BODY_REF = /"referenceId"\s*:\s*"([^"\\]{1,200})"/;

/**
 * A body's kind, read the way the checkout id is: a batch carries a `payments` array (spec 2.3), a normal checkout a
 * `payment` object (2.2). The older variant of 2.5 (a `payment`, no id) is neither, as the analysis reads it: its
 * events sit at no event position.
 */
export function kindOfHead(head: string): 'normal' | 'batch' | undefined {
  if (!BODY_ID.test(head)) return undefined;
  if (/"payments"\s*:\s*\[/.test(head)) return 'batch';
  if (/"payment"\s*:\s*\{/.test(head)) return 'normal';
  return undefined;
}

/** A body's top-level status, read the way the checkout id is (the first match); a body without one is at no place. */
const BODY_STATUS = /"status"\s*:\s*"([A-Z_]{1,40})"/;

/**
 * The probe that answers an attempt of the route's checkout (the attempt is counted): the plan's next answer, or for
 * a plan with `failAt` the next of its answers when the body's status sits there, else 'ok'. A passive checkout that
 * reaches its final event without its plan's place hands the plan on (`release`: to the next checkout of its kind).
 */
export function probeOf(route: Route, head: string, release: (plan: CheckoutPlan) => void): Probe {
  if (route.plan.failAt === undefined) return probeFor(route.plan, route.count++);
  route.count++;
  const status = BODY_STATUS.exec(head)?.[1];
  if (route.passive && !route.passive.released && route.plan.failAt === 'middle' && !route.atPlace && status !== undefined
    && whereOf(status) === 'final') {
    // A middle place can be missed (a checkout cancelled right after STARTED has none); the first and the final cannot.
    route.passive.released = true;
    release(route.plan);
  }
  if (status === undefined || whereOf(status) !== route.plan.failAt) return 'ok';
  route.atPlace = (route.atPlace ?? 0) + 1;
  return probeFor(route.plan, route.atPlace - 1);
}
