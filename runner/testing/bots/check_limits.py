# Says on stderr what its memory filesystems hold, as the kernel counts them, then fails, so that
# the check shows it beside its limits line: the two must agree.
import os
import sys

for name, path in (("/tmp", "/tmp"), ("/dev/shm", "/dev/shm"), ("scratch", os.environ["GOL_SCRATCH"])):
    s = os.statvfs(path)
    sys.stderr.write("%s: %d MiB and %d inodes\n" % (name, s.f_blocks * s.f_frsize >> 20, s.f_files))
sys.exit(1)
