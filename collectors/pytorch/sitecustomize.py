"""ampprof's sitecustomize: the PyTorch shim for `ampprof run` and `ampprof compare`.

The launcher puts this directory first on PYTHONPATH for traced runs, so Python's `site` imports this
file at start-up instead of any other `sitecustomize`. It then steps aside, so that the program sees
the interpreter it would have had without ampprof:

  1. with AMPPROF_SHIM=1 (set only by the launcher), installs the shim (ampprof_shim.install): an import
     hook that adjusts torch when, and only when, the script imports it;
  2. takes this directory (and any other copy of the shim: a nested `ampprof run` puts its own first
     too) off sys.path, so that sys.path is the user's own, in the user's order;
  3. imports the `sitecustomize` that Python would have imported without ampprof (a virtualenv's,
     Debian's, the user's) in its place: `import sitecustomize` and sys.modules["sitecustomize"] are
     then that module, with its attributes, and its errors are reported by `site` as Python reports
     them. Without one, `import sitecustomize` fails as it would have.

Without AMPPROF_SHIM a stray PYTHONPATH changes nothing. The shim's own failures become one warning on
stderr: nothing here may break the user's program.
"""

import os
import sys


def _install_shim():
    if os.environ.get("AMPPROF_SHIM") != "1":
        return
    try:
        import ampprof_shim

        ampprof_shim.install()
    except Exception as error:  # the shim is optional; the user's program is not
        sys.stderr.write("ampprof: the PyTorch shim could not be installed (%s: %s); torch is left as it is\n"
                         % (type(error).__name__, error))


def _is_ampprof_shim_dir(entry):
    # The shim's modules are imported by now and find their submodules through their package's
    # __path__, so no copy of it needs to stay on sys.path.
    directory = entry or os.curdir
    return (os.path.isfile(os.path.join(directory, "sitecustomize.py"))
            and os.path.isdir(os.path.join(directory, "ampprof_shim")))


def _leave_sys_path_to_the_user():
    shim_dirs = [entry for entry in sys.path if isinstance(entry, str) and _is_ampprof_shim_dir(entry)]
    for entry in shim_dirs:
        sys.path.remove(entry)
        sys.path_importer_cache.pop(entry, None)


def _import_the_next_sitecustomize():
    """Makes `sitecustomize` the module Python would have imported had this directory not come first.

    This runs while `site` imports this module, and importlib returns whatever sys.modules holds under
    the name once it is done: so the next module, imported under the same name, becomes the answer to
    that import. Its exceptions propagate to `site`, which reports them (and ignores a missing module)
    exactly as it does without ampprof.
    """
    import importlib

    del sys.modules["sitecustomize"]
    importlib.import_module("sitecustomize")


_install_shim()
_leave_sys_path_to_the_user()
_import_the_next_sitecustomize()
