/* What the init of a contained bot's PID namespace (namespace_init.c) tells the runner
 * (runner/sys/process.cpp) on the descriptor named in its first argument: one report when the
 * bot's program has started or failed to, one when it has ended. Each is written whole (far
 * below PIPE_BUF), so a read gets one whole report or none. C, for both sides. */
#ifndef GOL_RUNNER_CONTAIN_INIT_REPORT_H
#define GOL_RUNNER_CONTAIN_INIT_REPORT_H

#include <stdint.h>

enum {
    GOL_INIT_STARTED = 1,       /* the bot's execve succeeded */
    GOL_INIT_EXEC_FAILED = 2,   /* value: execve's errno */
    GOL_INIT_SETUP_FAILED = 3,  /* value: errno of making the namespaces */
    GOL_INIT_ENDED = 4          /* value: the bot's wait status; max_rss_kb: its peak (wait4) */
};

struct gol_init_report {
    int32_t kind;
    int32_t value;
    int64_t max_rss_kb;
};

#endif
