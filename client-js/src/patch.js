// Applying the server's RFC 6902 diffs to the last view (fast-json-patch does the work).
import jsonpatch from "fast-json-patch";

/**
 * Returns the new state {version, view}, or null when the diff does not follow the view's version
 * (a gap) or does not apply to it: the caller then asks the server for a resync instead of guessing.
 * The old view is never modified.
 */
export function applyDiff(state, diff) {
  if (!state || !state.view || diff.base !== state.version) return null;
  const view = jsonpatch.deepClone(state.view);
  try {
    jsonpatch.applyPatch(view, diff.ops, true, true);
  } catch {
    return null;
  }
  return { version: diff.version, view };
}
