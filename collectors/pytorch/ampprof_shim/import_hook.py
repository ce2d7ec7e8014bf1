"""Adjusting torch right after the script imports it, without importing it ourselves.

A meta-path finder sees `import torch` before any other finder, asks the others for torch's real spec
and returns it with its loader's exec_module wrapped: torch loads exactly as it would, then the callback
runs once with the fully initialised module. Only the loader instance of this one import is touched
(not its class), and the wrapper removes itself after use, so torch.__spec__.loader stays the real
loader for importlib.resources, inspect and the like.
"""

import importlib.abc
import importlib.util
import sys

from ampprof_shim.patching import warn


class TorchImportHook(importlib.abc.MetaPathFinder):
    def __init__(self, on_import):
        self._on_import = on_import

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch":
            return None
        # One import of torch per process: step aside first, so the lookup below does not come back here.
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        spec = importlib.util.find_spec(fullname)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        real_exec_module = loader.exec_module
        on_import = self._on_import

        def exec_module(module):
            try:
                del loader.exec_module
            except AttributeError:
                pass
            real_exec_module(module)  # torch's own errors propagate unchanged
            try:
                on_import(module)
            except Exception as error:
                warn("adjusting torch failed (%s: %s); torch is left as it is" % (type(error).__name__, error))

        try:
            loader.exec_module = exec_module
        except (AttributeError, TypeError):
            warn("cannot hook torch's loader (%s); torch is left as it is" % type(loader).__name__)
        return spec
