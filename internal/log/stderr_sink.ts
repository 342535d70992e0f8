// Where berthd's log lines go unless told otherwise: its stderr. When the reader goes away (a
// supervisor's pipe closed, journald restarted), every write fails with EPIPE, which Node reports as
// an 'error' event of process.stderr; unheard, that is an uncaught exception, which berthd's crash
// policy logs, to stderr: each failed line made another, in a loop that starved the event loop
// (100% CPU, SIGTERM never handled). containerd ignores SIGPIPE and drops what it cannot write;
// berthd, too, keeps serving and drops its log lines from the first failed write on (a stream that
// failed once is destroyed: nothing written to it later could arrive).
let broken = false;
let heard = false;

export function writeToStderr(line: string): void {
  if (broken) return;
  if (!heard) {
    heard = true;
    process.stderr.on('error', () => {
      broken = true;
    });
  }
  try {
    process.stderr.write(line);
  } catch {
    broken = true;
  }
}
