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
    jsonpatch.applyPatch(view, expandOps(diff.ops), true, true);
  } catch {
    return null;
  }
  return { version: diff.version, view };
}

const OPS = { "+": "add", "-": "remove", "=": "replace" };

/**
 * The wire carries each RFC 6902 op as a tuple [code, path] or [code, path, value] (codes "+" add,
 * "-" remove, "=" replace); this turns them back into JSON Patch ops for the library.
 */
export function expandOps(ops) {
  return ops.map((op) => {
    if (!Array.isArray(op) || !(op[0] in OPS) || typeof op[1] !== "string") throw new Error("bad diff op");
    return op.length > 2 ? { op: OPS[op[0]], path: op[1], value: op[2] } : { op: OPS[op[0]], path: op[1] };
  });
}
