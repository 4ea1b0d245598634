import { LegacyUnavailableError } from "../connectors/legacy-client";

/** Runs a call to the legacy system; one that stays down becomes `{ unavailable }`, an outcome, not a throw. */
export async function catchLegacyUnavailable<T>(fn: () => Promise<T>): Promise<T | { unavailable: string }> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LegacyUnavailableError) return { unavailable: err.message };
    throw err;
  }
}
