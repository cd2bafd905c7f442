// The MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) imports `globSync` from
// `fs`, which Node 22 has and Node 20 (this machine's) has not; only its `tier-check` command
// calls it. This hook hands the suite a `fs` with a `globSync` that says so, and nothing else.
// Used as: node --import ./conformance/suite/node20.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js
import { register } from "node:module";

register("./node20_hooks.mjs", import.meta.url);
