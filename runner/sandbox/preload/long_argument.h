/* The long-argument protocol's names and sizes, one definition for the preload library
 * (long_argument.c) and the runner's side (sandbox/long_argument.hpp), which both compile it. */
#ifndef GOL_LONG_ARGUMENT_H
#define GOL_LONG_ARGUMENT_H

/* Which arguments come from which descriptors: "BACK:FD", comma-separated. */
#define GOL_LONG_ARGUMENTS_VAR "GOL_LONG_ARGUMENTS"
/* What the bot's argv holds until the library puts the text in its place. */
#define GOL_LONG_ARGUMENT_PLACEHOLDER "@gol-long-argument"
/* MAX_ARG_STRLEN: the longest argument execve takes, its NUL included. */
#define GOL_MAX_ARGUMENT_BYTES (32 * 4096)

#endif
