// Preloaded into a spawned CLI (`node --import ./test/support/max-rss.ts ...`): prints the
// process's peak resident memory as its last line on stderr, however it exits.
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
