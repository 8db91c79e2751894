# Leaves a daemon behind, then never replies: the runner is still waiting for this move when a
# test SIGKILLs it, and the daemon must not outlive the runner.
setsid sh -c 'sleep 31.4159 &'
exec sleep 27.1828
