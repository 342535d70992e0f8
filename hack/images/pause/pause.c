/*
 * berth test pause: the process that holds a pod's namespaces open.
 * Sleeps until SIGTERM or SIGINT (then exits 0, like Kubernetes' pause), and as PID 1 of a pod's
 * PID namespace reaps every orphan that is re-parented to it so no zombie accumulates.
 * Built with `gcc -static -Os -s` by hack/images so the image needs no libc.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_terminate(int signo) {
  (void)signo;
  _exit(0);
}

static void on_child(int signo) {
  (void)signo;
  int saved = errno; /* a handler must not clobber errno of the interrupted code */
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  errno = saved;
}

static int install(int signo, void (*handler)(int), int flags) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  return sigaction(signo, &action, NULL);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "-v") == 0) {
    printf("berth-pause 1\n");
    return 0;
  }
  if (install(SIGINT, on_terminate, 0) < 0 || install(SIGTERM, on_terminate, 0) < 0 ||
      install(SIGCHLD, on_child, SA_NOCLDSTOP | SA_RESTART) < 0) {
    perror("pause: sigaction");
    return 1;
  }
  /* Warned after the handlers are in place: a caller that saw this line may already signal us. */
  if (getpid() != 1) {
    fprintf(stderr, "Warning: pause should be the first process\n");
  }
  for (;;) {
    pause();
  }
  return 42; /* unreachable: the loop only ends through a signal handler */
}
