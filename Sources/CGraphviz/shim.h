#ifndef MACHINE_VIZ_CGRAPHVIZ_SHIM_H
#define MACHINE_VIZ_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#include <unistd.h>
#include <signal.h>
#include <poll.h>
#include <sys/wait.h>

/* Swift marks fork() unavailable; the layout runs in a forked child so that a layout over its time
   budget can be stopped (libgvc cannot be interrupted). The child only calls C. */
static inline pid_t machine_viz_fork(void) { return fork(); }
static inline void machine_viz_exit(int status) { _exit(status); }
#endif
