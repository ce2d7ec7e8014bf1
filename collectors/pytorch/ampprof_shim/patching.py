"""Reversible monkey-patching and the shim's one-line warnings."""

import sys

_MISSING = object()
_warned = set()


def warn(message):
    """One line on stderr, once per distinct message."""
    if message in _warned:
        return
    _warned.add(message)
    try:
        sys.stderr.write("ampprof: %s\n" % message)
        sys.stderr.flush()
    except Exception:
        pass


class Patcher:
    """Records each change so that a feature that fails half-way can be undone completely."""

    def __init__(self):
        self._undo = []

    def replace(self, owner, name, value):
        """Sets owner.name = value (a class or module attribute), remembering the attribute as it was
        stored (the raw descriptor, not what getattr returns)."""
        stored = vars(owner).get(name, _MISSING)
        setattr(owner, name, value)

        def restore():
            if stored is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, stored)

        self._undo.append(restore)

    def on_undo(self, action):
        """Registers an undo step of the caller's own (removing a hook handle)."""
        self._undo.append(action)

    def undo(self):
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:
                pass
