/**
 * Migration 5: an engine's remembered translation keeps what steered it — the request's
 * context, tone, domain and instructions, as a digest (translation/memory/memory_step.ts,
 * `steeringOf`) — so that it is reused only under the same steering: "bank" translated beside
 * a river is not the answer beside a till. Entries written before had none ('').
 */
export const MEMORY_STEERING = `
alter table memory_entries add column steering text not null default '';
`;
