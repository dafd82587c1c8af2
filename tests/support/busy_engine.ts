/**
 * A local engine that is busy on demand: one slot and no waiting room, so that whichever request
 * arrives while another holds the slot is refused, as a full queue refuses it.
 */
import { FRENCH } from "./sample_texts.ts";
import { startTranslationService, type TestService } from "./translation_service.ts";

/** Seconds the busy refusal asks the client to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** Starts a service whose local engine has one slot and no waiting room. */
export function startOneSlotService(): Promise<TestService> {
  return startTranslationService({
    localQueue: { concurrency: 1, maxWaiting: 0, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
  });
}

/** A long job for the local model: 64 French items (`call` sends them as it names them). */
export const LONG_JOB = Array.from({ length: 64 }, (_, i) => `${FRENCH} Numéro ${i}.`);

/**
 * Starts `long`, then sends `probe` until a request is refused (not 200), and returns that refusal
 * with its body unread (the others' bodies are cancelled); undefined when none overlapped.
 */
export async function refusedWhileBusy(
  long: () => Promise<Response>,
  probe: () => Promise<Response>,
): Promise<Response | undefined> {
  const first = long();
  let refused: Response | undefined;
  for (let i = 0; i < 200 && !refused; i++) {
    const response = await probe();
    if (response.status !== 200) refused = response;
    else await response.body?.cancel();
  }
  const longAnswer = await first;
  if (longAnswer.status !== 200 && !refused) return longAnswer;
  await longAnswer.body?.cancel();
  return refused;
}
