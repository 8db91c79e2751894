# Imports a module that is not installed: its traceback names the module on its last line.
import no_such_module_xyz  # noqa: F401

print("[]")
