// Applying the server's RFC 6902 diffs to the last view (fast-json-patch does the work).
import jsonpatch from "fast-json-patch";

/**
 * Returns the new view, or null when the diff does not follow the view's version
 * (a gap: the caller asks the server for a resync instead of guessing).
 */
export function applyDiff(state, diff) {
  if (!state || diff.base !== state.version) return null;
  const view = jsonpatch.deepClone(state.view);
  jsonpatch.applyPatch(view, diff.ops, false, true);
  return { version: diff.version, view };
}
