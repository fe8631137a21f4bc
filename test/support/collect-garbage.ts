// Preloaded into a spawned CLI (`node --expose-gc --import ./test/support/collect-garbage.ts ...`):
// a full garbage collection every 250 ms for the whole run, so that whatever a request's deadline
// rests on is collected during a stall if nothing holds it (issue 46: on Node 20 the deadline
// was `AbortSignal.any` over `AbortSignal.timeout`, collected mid-wait, and never fired).
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('collect-garbage.ts needs node --expose-gc');
setInterval(collect, 250).unref();
