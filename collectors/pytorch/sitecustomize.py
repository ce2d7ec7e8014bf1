"""ampprof's sitecustomize: the PyTorch shim for `ampprof run` and `ampprof compare`.

The launcher puts this directory first on PYTHONPATH for traced runs, so Python's `site` imports this
file at start-up instead of any other `sitecustomize`. It does two things:

  1. with AMPPROF_SHIM=1 (set only by the launcher), installs the shim (ampprof_shim.install): an import
     hook that adjusts torch when, and only when, the script imports it;
  2. always runs the next `sitecustomize` on sys.path (a virtualenv's, Debian's), so that a program
     behaves as it would without ampprof. Without AMPPROF_SHIM a stray PYTHONPATH changes nothing.

Nothing here may break the user's program: every failure becomes one warning on stderr.
"""


def _install_shim():
    import os

    if os.environ.get("AMPPROF_SHIM") != "1":
        return
    try:
        import ampprof_shim

        ampprof_shim.install()
    except Exception as error:  # the shim is optional; the user's program is not
        import sys

        sys.stderr.write("ampprof: the PyTorch shim could not be installed (%s: %s); torch is left as it is\n"
                         % (type(error).__name__, error))


def _run_next_sitecustomize():
    """Runs the `sitecustomize` that Python would have imported had this directory not come first."""
    import importlib.machinery
    import importlib.util
    import os
    import sys

    def is_ampprof_shim_dir(entry):
        # Any copy of this shim (a nested `ampprof run` puts its own first too): running one would chain
        # back to this one, forever.
        return os.path.isdir(os.path.join(entry or os.curdir, "ampprof_shim"))

    search_path = [entry for entry in sys.path if not is_ampprof_shim_dir(entry)]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", search_path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        # What site.py itself prints when a sitecustomize fails; the program goes on, as it would.
        sys.stderr.write("Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s\n"
                         % (type(error).__name__, error))


_install_shim()
_run_next_sitecustomize()
