"""NVTX ranges in the `ampprof` domain, from Python.

torch.cuda.nvtx has no domain argument, so the shim calls an NVTX library's domain API through ctypes:
nvtxDomainCreateA, nvtxDomainRangePushEx/Pop and nvtxDomainRangeStartEx/End. Like torch's own NVTX
calls, the library hands them to the tool named by NVTX_INJECTION64_PATH (ampprof's collector, or nsys),
so they appear as ranges in domain "ampprof". Libraries tried, first found wins:

  1. AMPPROF_NVTX_LIBRARY (the launcher may point it at the CUDA toolkit's libnvtx3interop.so.1);
  2. beside torch: the nvidia-nvtx wheel (nvidia/nvtx/lib) and torch/lib;
  3. the loader's search path: libnvtx3interop.so.1 (CUDA >= 12.9 ships the NVTX 3 API as this
     library; libnvToolsExt was removed), then libnvToolsExt.so.1 (CUDA < 12.9);
  4. CUDA_HOME / CUDA_PATH / /usr/local/cuda.

Without one (or with AMPPROF_NVTX_LIBRARY=torch), the ranges go through torch.cuda.nvtx in the default
domain, named "ampprof:<name>" (e.g. "ampprof:step"); analyzers/steps.cc accepts both forms.
"""

import ctypes
import glob
import os

from ampprof_shim.patching import warn

DOMAIN = "ampprof"
FALLBACK_PREFIX = DOMAIN + ":"
TORCH_FALLBACK = "torch"  # AMPPROF_NVTX_LIBRARY value that asks for torch.cuda.nvtx

_NVTX_VERSION = 3
_NVTX_MESSAGE_TYPE_ASCII = 1


class _EventAttributes(ctypes.Structure):
    """nvtxEventAttributes_v2 (nvtx3/nvToolsExt.h): 48 bytes, message at offset 40."""

    _fields_ = [
        ("version", ctypes.c_uint16),
        ("size", ctypes.c_uint16),
        ("category", ctypes.c_uint32),
        ("colorType", ctypes.c_int32),
        ("color", ctypes.c_uint32),
        ("payloadType", ctypes.c_int32),
        ("reserved0", ctypes.c_int32),
        ("payload", ctypes.c_uint64),
        ("messageType", ctypes.c_int32),
        ("message", ctypes.c_char_p),
    ]


class DomainMarkers:
    """Ranges in the ampprof domain through an NVTX library's C API."""

    def __init__(self, library_path):
        lib = ctypes.CDLL(library_path)
        self.library_path = library_path
        self._create = lib.nvtxDomainCreateA
        self._create.restype = ctypes.c_void_p
        self._create.argtypes = [ctypes.c_char_p]
        self._push = lib.nvtxDomainRangePushEx
        self._push.restype = ctypes.c_int
        self._push.argtypes = [ctypes.c_void_p, ctypes.POINTER(_EventAttributes)]
        self._pop = lib.nvtxDomainRangePop
        self._pop.restype = ctypes.c_int
        self._pop.argtypes = [ctypes.c_void_p]
        self._start = lib.nvtxDomainRangeStartEx
        self._start.restype = ctypes.c_uint64
        self._start.argtypes = [ctypes.c_void_p, ctypes.POINTER(_EventAttributes)]
        self._end = lib.nvtxDomainRangeEnd
        self._end.restype = None
        self._end.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
        self._domain = self._create(DOMAIN.encode())
        self._messages = {}  # name -> bytes kept alive while NVTX may read them

    def _attributes(self, name):
        message = self._messages.setdefault(name, name.encode())
        attributes = _EventAttributes()
        attributes.version = _NVTX_VERSION
        attributes.size = ctypes.sizeof(_EventAttributes)
        attributes.messageType = _NVTX_MESSAGE_TYPE_ASCII
        attributes.message = message
        return attributes

    def push(self, name):
        self._push(self._domain, ctypes.byref(self._attributes(name)))

    def pop(self):
        self._pop(self._domain)

    def start(self, name):
        return self._start(self._domain, ctypes.byref(self._attributes(name)))

    def end(self, range_id):
        self._end(self._domain, range_id)


class TorchMarkers:
    """The fallback: default-domain ranges through torch.cuda.nvtx, named "ampprof:<name>"."""

    library_path = None

    def __init__(self, torch_nvtx):
        for needed in ("range_push", "range_pop", "range_start", "range_end"):
            if not hasattr(torch_nvtx, needed):
                raise AttributeError("torch.cuda.nvtx has no %s" % needed)
        self._nvtx = torch_nvtx

    def push(self, name):
        self._nvtx.range_push(FALLBACK_PREFIX + name)

    def pop(self):
        self._nvtx.range_pop()

    def start(self, name):
        return self._nvtx.range_start(FALLBACK_PREFIX + name)

    def end(self, range_id):
        self._nvtx.range_end(range_id)


def candidate_libraries(torch, explicit=None):
    """NVTX libraries to try, most specific first (see the module docstring)."""
    names = ("libnvtx3interop.so.1", "libnvtx3interop.so", "libnvToolsExt.so.1", "libnvToolsExt.so")
    candidates = [explicit] if explicit else []
    torch_dir = os.path.dirname(getattr(torch, "__file__", None) or "")
    if torch_dir:
        site_packages = os.path.dirname(torch_dir)
        candidates += [os.path.join(site_packages, "nvidia", "nvtx", "lib", name) for name in names]
        candidates += sorted(glob.glob(os.path.join(torch_dir, "lib", "libnvToolsExt*.so*")))
    candidates += list(names)  # the dynamic loader's search path
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            candidates += [os.path.join(root, "lib64", name) for name in names]
    return candidates


def open_markers(torch, explicit_library=None):
    """The best available way to emit ampprof ranges, or None (with one warning) when there is none."""
    use_library = explicit_library != TORCH_FALLBACK
    for candidate in candidate_libraries(torch, explicit_library) if use_library else []:
        if os.sep in candidate and not os.path.exists(candidate):
            continue
        try:
            return DomainMarkers(candidate)
        except (OSError, AttributeError):
            if candidate == explicit_library:
                warn("AMPPROF_NVTX_LIBRARY=%s cannot be used as an NVTX library; trying others" % candidate)
    try:
        return TorchMarkers(torch.cuda.nvtx)
    except Exception as error:
        warn("no NVTX library and no usable torch.cuda.nvtx (%s); training steps are not marked" % error)
        return None
