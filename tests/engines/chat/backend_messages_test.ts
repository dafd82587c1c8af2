import assert from "node:assert/strict";
import { unreachable } from "../../../engines/chat/backend_messages.ts";

const ORIGIN = "http://127.0.0.1:11434";
const SENT = `error sending request for url (${ORIGIN}/api/tags): client error (Connect): `;

/** Deno's words for a failure to connect, and what the client reads of them. */
const UNREACHABLE_CASES = [
  {
    name: "a refused connection to Ollama asks whether Ollama runs",
    engine: "engine-one",
    failure: `${SENT}tcp connect error: Connection refused (os error 111)`,
    said: `cannot reach ${ORIGIN} (connection refused) — is Ollama running?`,
  },
  {
    name: "a refused connection to LM Studio names its server",
    engine: "engine-two",
    failure: `${SENT}tcp connect error: Connection refused (os error 111)`,
    said: `cannot reach ${ORIGIN} (connection refused) — is LM Studio's server running?`,
  },
  {
    name: "a refused connection to any other server says the server",
    engine: "compatible-api",
    failure: `${SENT}tcp connect error: Connection refused (os error 111)`,
    said: `cannot reach ${ORIGIN} (connection refused) — is the server running?`,
  },
  {
    name: "a host name that does not resolve says so, with no question about running",
    engine: "engine-one",
    failure: `${SENT}dns error: failed to lookup address information: Name or service not known`,
    said: `cannot reach ${ORIGIN} (the host name does not resolve)`,
  },
  {
    name: "an unreachable network says so",
    engine: "engine-two",
    failure: `${SENT}tcp connect error: Network is unreachable (os error 101)`,
    said: `cannot reach ${ORIGIN} (the network is unreachable)`,
  },
  {
    name: "a failure of no known kind is quoted as it is",
    engine: "engine-one",
    failure: "Fetch failed: Requests to port 1 are blocked",
    said: `cannot reach ${ORIGIN} (Fetch failed: Requests to port 1 are blocked)`,
  },
] as const;

for (const { name, engine, failure, said } of UNREACHABLE_CASES) {
  Deno.test(`unreachable: ${name}`, () => {
    assert.equal(unreachable(engine, ORIGIN, failure), said);
  });
}
