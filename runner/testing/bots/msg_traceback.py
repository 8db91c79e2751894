# Crashes with a Python traceback whose last line names the error.
import gol_no_such_module  # noqa: F401
