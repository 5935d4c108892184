# SPDX-License-Identifier: Apache-2.0
"""Arrays of other libraries, read through DLPack (``__dlpack__`` and ``__dlpack_device__``).

NumPy arrays, CuPy arrays, PyTorch CUDA tensors and other ``__cuda_array_interface__`` objects
have paths of their own (_arrays.py). Any other DLPack producer is imported without a copy: one in
host memory with numpy.from_dlpack, one in CUDA memory with CuPy (or PyTorch when CuPy cannot be
imported). The result goes back through the producer's own ``from_dlpack`` (a class method of
its type, its array API namespace's, or its top-level package's, as ``torch.from_dlpack``) when
it has one, and is the imported library's array otherwise.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import numpy as np

from . import _arrays

# DLDeviceType codes (dlpack.h).
_CPU, _CUDA, _CUDA_HOST, _ROCM_HOST, _CUDA_MANAGED = 1, 2, 3, 11, 13
_HOST_TYPES = (_CPU, _CUDA_HOST, _ROCM_HOST)
_CUDA_TYPES = (_CUDA, _CUDA_MANAGED)
_DEVICE_NAMES = {1: "kDLCPU", 2: "kDLCUDA", 3: "kDLCUDAHost", 4: "kDLOpenCL", 7: "kDLVulkan", 8: "kDLMetal",
                 9: "kDLVPI", 10: "kDLROCM", 11: "kDLROCMHost", 12: "kDLExtDev", 13: "kDLCUDAManaged",
                 14: "kDLOneAPI", 15: "kDLWebGPU", 16: "kDLHexagon", 17: "kDLMAIA"}


def type_name(obj: Any) -> str:
    t = type(obj)
    module = t.__module__
    return t.__qualname__ if module in ("builtins", "__main__") else f"{module}.{t.__qualname__}"


_cuda_importer: Optional[bool] = None


def _can_import_cuda_arrays() -> bool:
    """Whether CuPy or PyTorch can be imported (asked once)."""
    global _cuda_importer
    if _cuda_importer is None:
        _cuda_importer = False
        for name in ("cupy", "torch"):
            try:
                __import__(name)
            except ImportError:
                continue
            _cuda_importer = True
            break
    return _cuda_importer


def is_foreign(obj: Any) -> bool:
    """Whether obj is a DLPack producer that none of the direct paths takes: not a NumPy array,
    a CuPy array or a PyTorch CUDA tensor. (A PyTorch CPU tensor is one: it comes in through
    NumPy and goes back as a tensor. So is a JAX GPU array, though it also has
    __cuda_array_interface__: through DLPack its result is allocated and comes back as a JAX
    array, where that interface alone needs out=; that interface is used when neither CuPy nor
    PyTorch can be imported.)"""
    if isinstance(obj, np.ndarray):
        return False
    t = type(obj)
    if not (hasattr(t, "__dlpack__") and hasattr(t, "__dlpack_device__")):
        return False
    if _arrays.is_torch(obj):
        return not obj.is_cuda
    if _arrays.is_cupy(obj):
        return False
    if hasattr(obj, "__cuda_array_interface__"):
        return _can_import_cuda_arrays()
    return True


def device_of(obj: Any, role: str) -> tuple:
    try:
        device_type, device_id = obj.__dlpack_device__()
        return int(device_type), int(device_id)
    except Exception as e:
        raise TypeError(f"{role} is a {type_name(obj)} whose __dlpack_device__() fails: {e}") from None


def _device_text(device_type: int, device_id: int) -> str:
    return f"{_DEVICE_NAMES.get(device_type, f'device type {device_type}')}, device {device_id}"


def _import_cuda(obj: Any, role: str, device: tuple) -> Any:
    errors = []
    for name in ("cupy", "torch"):
        try:
            module = __import__(name)
        except ImportError as e:
            errors.append(f"{name}: {e}")
            continue
        return module.from_dlpack(obj)
    raise TypeError(f"{role} is a {type_name(obj)} in CUDA memory ({_device_text(*device)}); tessera reads CUDA "
                    f"arrays through CuPy or PyTorch, and neither can be imported here ({'; '.join(errors)})")


def import_array(obj: Any, role: str = "the image") -> Any:
    """obj as a NumPy array (host memory) or a CuPy array / PyTorch tensor (CUDA memory),
    sharing its memory. Raises TypeError for memory tessera cannot read, naming the producer's
    type and device."""
    device = device_of(obj, role)
    if device[0] in _HOST_TYPES:
        try:
            return np.from_dlpack(obj)
        except (BufferError, RuntimeError, TypeError) as e:
            raise TypeError(f"{role} is a {type_name(obj)} ({_device_text(*device)}) that NumPy cannot import "
                            f"through DLPack: {e}") from None
    if device[0] in _CUDA_TYPES:
        return _import_cuda(obj, role, device)
    raise TypeError(f"{role} is a {type_name(obj)} on {_device_text(*device)}; tessera reads host memory "
                    "(kDLCPU) and CUDA memory (kDLCUDA) only")


def import_out(obj: Any) -> Any:
    """out= given as a DLPack producer, imported for writing. NumPy imports host memory read-only
    unless the producer says it may be written (DLPack 1.0, NumPy 2), and that is respected: an
    immutable array (JAX's) must not be written behind its owner's back."""
    array = import_array(obj, "out")
    if isinstance(array, np.ndarray) and not array.flags.writeable:
        raise ValueError(f"out is a {type_name(obj)} that NumPy {np.__version__} imports read-only through DLPack "
                         "(its memory is not known to be writable: that takes a DLPack 1.0 producer and NumPy 2); "
                         "give a NumPy array as out, or leave out= unset")
    return array


def exporter(like: Any) -> Optional[Callable[[Any], Any]]:
    """The producer's own way back from DLPack: its type's from_dlpack, else its array API
    namespace's (``__array_namespace__()``), else its top-level package's (torch.from_dlpack for
    a CPU tensor); None when it has none of them."""
    t = type(like)
    function = getattr(t, "from_dlpack", None)
    if callable(function):
        return function
    if hasattr(like, "__array_namespace__"):
        try:
            function = getattr(like.__array_namespace__(), "from_dlpack", None)
        except Exception:
            function = None
        if callable(function):
            return function
    package = sys.modules.get(t.__module__.partition(".")[0])
    function = getattr(package, "from_dlpack", None) if package is not None else None
    return function if callable(function) else None


def export_like(result: Any, like: Any) -> Any:
    """result (an array tessera made) as the same kind of array as `like` where it can be."""
    function = exporter(like)
    return result if function is None else function(result)
