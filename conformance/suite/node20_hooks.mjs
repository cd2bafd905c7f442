// Resolve hook for node20.mjs: `fs` (and `node:fs`) imported by the conformance suite becomes
// fs_glob.mjs, the real module plus the one export Node 20 lacks.
const SHIM = new URL("./fs_glob.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL
      && context.parentURL.includes("/@modelcontextprotocol/conformance/")) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
