// The load generator of benchmark P7: autocannon (pinned in package-lock.json), a Node HTTP load
// tester whose requests cost far less than the agent's answers, so the agent, not the client, is
// what is measured (the Python client it replaces was the bottleneck).
//
//   node benchmarks/a2a_load.mjs URL REQUESTS CONNECTIONS
//
// Sends REQUESTS A2A SendMessage requests to URL/a2a over CONNECTIONS keep-alive connections, each
// a message of its own (a fresh messageId), and prints one line of JSON: requests per second, the
// count of answers that were not 200, and the errors.
//
// The time is taken here, from the start to the last answer: autocannon's own start and finish
// mark its 1 s sampling ticks, so a run of 2.2 s reads as 3.02 s (a ceiling of 662 requests/s
// for 2,000 requests whatever the agent does).
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";

const [url, requests, connections] = process.argv.slice(2);
let n = 0;
let last = 0;
const start = performance.now();
const run = autocannon({
  url: `${url}/a2a`,
  connections: Number(connections),
  amount: Number(requests),
  method: "POST",
  headers: { "content-type": "application/json", "a2a-version": "1.0" },
  requests: [{
    setupRequest: (request) => {
      n += 1;
      request.body = JSON.stringify({
        jsonrpc: "2.0", id: n, method: "SendMessage",
        params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: `summarise document ${n}` }] } },
      });
      return request;
    },
  }],
});
run.on("response", () => { last = performance.now(); });
const result = await run;
const seconds = (last - start) / 1000;  // first request to last answer
console.log(JSON.stringify({ rps: result.requests.total / seconds, non2xx: result.non2xx, errors: result.errors }));
