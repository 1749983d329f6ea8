// Preloaded (node --import) into every server the bench starts. The bench talks to its servers over
// an IPC channel only so that this works: when the bench dies, even by SIGKILL, the channel closes
// and the server shuts down (SIGTERM, so its own close handlers run) instead of lingering.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => {
    setTimeout(() => process.exit(1), 10_000).unref();
    process.kill(process.pid, 'SIGTERM');
  });
}
