// node:fs as it is, plus `globSync` (Node 22), which only the suite's tier-check command calls.
import fs from "node:fs";

export * from "node:fs";
export default fs;
export const globSync = fs.globSync ?? (() => {
  throw new Error("globSync needs Node 22: the conformance suite's tier-check is not available on this Node");
});
