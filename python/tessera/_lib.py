# SPDX-License-Identifier: Apache-2.0
"""Loading libtessera.so.0 and calling it: the one module that speaks ctypes.

The library is the one the ``TESSERA_LIBRARY`` environment variable names when it is set
(nothing else is tried then); otherwise the one next to this file (a wheel carries it there),
and then whatever the dynamic loader's own search finds (the system's, from the libtessera0
package). A library that loads but is not libtessera is an ImportError. ctypes releases the
GIL for the length of every call, so other Python threads run while an image is filtered.
"""

import ctypes
import json
import os
import sysconfig
import threading

from . import _args

_U8, _U16, _F32 = 0, 1, 2

_OK = 0
_INVALID_ARGUMENT = 1
_NOT_SUPPORTED = 2
_OUT_OF_MEMORY = 3
_RUNTIME_ERROR = 4
_INTERRUPTED = 5

API_VERSION = 5

HOST_MEMORY, DEVICE_MEMORY = 0, 1
REPORT_JSON, REPORT_CHROME_TRACE = 0, 1


class TesseraError(RuntimeError):
    """A failure inside the library that is not the caller's doing (a CUDA error, say)."""


class _Image(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("width", ctypes.c_int64),
        ("height", ctypes.c_int64),
        ("row_stride", ctypes.c_int64),
        ("channels", ctypes.c_int32),
        ("depth", ctypes.c_int32),
    ]


class _Options(ctypes.Structure):
    _fields_ = [
        ("border", ctypes.c_char_p),
        ("depth", ctypes.c_char_p),
        ("device", ctypes.c_char_p),
        ("method", ctypes.c_char_p),
        ("set_border_value", ctypes.c_int32),
        ("set_scale", ctypes.c_int32),
        ("set_offset", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("border_value", ctypes.c_double),
        ("scale", ctypes.c_double),
        ("offset", ctypes.c_double),
        ("gpu_memory_limit", ctypes.c_uint64),
    ]


_SONAME = "libtessera.so.0"


def _candidates():
    env = os.environ.get("TESSERA_LIBRARY")
    if env:
        # A library named on purpose is the only one tried: finding another instead would hide
        # the mistake.
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, _SONAME)
    # An install under any prefix: PREFIX/lib/python3/dist-packages/tessera beside
    # PREFIX/lib/<multiarch>/libtessera.so.0 (or PREFIX/lib/), as `cmake --install` lays it out.
    lib = os.path.normpath(os.path.join(here, "..", "..", ".."))
    if os.path.basename(lib) == "lib":
        multiarch = sysconfig.get_config_var("MULTIARCH") or ""
        for folder in ([os.path.join(lib, multiarch)] if multiarch else []) + [lib]:
            candidate = os.path.join(folder, _SONAME)
            if os.path.exists(candidate):
                yield candidate
                break
    yield _SONAME


def _mapped_path(name):
    """The file the loader mapped for `name` (a bare soname it found on its own search path)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) == 6 and os.path.basename(fields[5].strip()).startswith(name):
                    return fields[5].strip()
    except OSError:
        pass
    return name


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
            continue
        # Another library loads as well as ours does; only the API version function says which.
        if not hasattr(lib, "tessera_api_version"):
            errors.append(f"{path}: loads, but is not libtessera (it has no tessera_api_version)")
            continue
        return lib, (path if os.sep in path else _mapped_path(path))
    raise ImportError(
        f"tessera: cannot load {_SONAME} (install libtessera0, or set TESSERA_LIBRARY to its path):\n  "
        + "\n  ".join(errors)
    )


_lib, LIBRARY_PATH = _load()

_P = ctypes.POINTER
_lib.tessera_version.restype = ctypes.c_char_p
_lib.tessera_version.argtypes = []
_lib.tessera_commit.restype = ctypes.c_char_p
_lib.tessera_commit.argtypes = []
_lib.tessera_api_version.restype = ctypes.c_int
_lib.tessera_api_version.argtypes = []
_lib.tessera_last_error.restype = ctypes.c_char_p
_lib.tessera_last_error.argtypes = []
_lib.tessera_filters_json.restype = ctypes.c_char_p
_lib.tessera_filters_json.argtypes = []
_lib.tessera_devices_json.restype = ctypes.c_char_p
_lib.tessera_devices_json.argtypes = []
_lib.tessera_describe_chain.restype = ctypes.c_int
_lib.tessera_describe_chain.argtypes = [ctypes.c_char_p, _P(_Options), _P(ctypes.c_char_p)]
_lib.tessera_plan_create.restype = ctypes.c_int
_lib.tessera_plan_create.argtypes = [_P(_Image), ctypes.c_int32, ctypes.c_char_p, _P(_Options), _P(ctypes.c_void_p),
                                     _P(ctypes.c_int32), _P(ctypes.c_uint64)]
_lib.tessera_plan_run_host.restype = ctypes.c_int
_lib.tessera_plan_run_host.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                       ctypes.c_int64]
_lib.tessera_plan_run_device.restype = ctypes.c_int
_lib.tessera_plan_run_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                         ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64]
_lib.tessera_plan_free.restype = None
_lib.tessera_plan_free.argtypes = [ctypes.c_void_p]
_lib.tessera_pointer_device.restype = ctypes.c_int
_lib.tessera_pointer_device.argtypes = [ctypes.c_void_p, _P(ctypes.c_int32)]
_lib.tessera_stream_wait.restype = ctypes.c_int
_lib.tessera_stream_wait.argtypes = [ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p]
_lib.tessera_last_run.restype = ctypes.c_int
_lib.tessera_last_run.argtypes = [ctypes.c_int32, _P(ctypes.c_char_p)]
_lib.tessera_set_step_timing.restype = ctypes.c_int32
_lib.tessera_set_step_timing.argtypes = [ctypes.c_int32]
_lib.tessera_interrupt.restype = ctypes.c_int
_lib.tessera_interrupt.argtypes = []
_lib.tessera_write_image.restype = ctypes.c_int
_lib.tessera_write_image.argtypes = [ctypes.c_char_p, _P(_Image), ctypes.c_int32, ctypes.c_char_p, ctypes.c_char_p,
                                     _P(ctypes.c_char_p)]

if _lib.tessera_api_version() != API_VERSION:
    raise ImportError(
        f"tessera: {LIBRARY_PATH} speaks C API version {_lib.tessera_api_version()}, "
        f"this package version {API_VERSION}"
    )

VERSION = _lib.tessera_version().decode()
# The commit the library was built from ("" when unknown), as a PEP 440 local version part.
COMMIT = _lib.tessera_commit().decode()
FULL_VERSION = VERSION + ("+g" + COMMIT if COMMIT else "")
_filters_cache = None
_lock = threading.Lock()


def _check(status):
    if status == _OK:
        return
    message = _lib.tessera_last_error().decode(errors="replace")
    if status == _INVALID_ARGUMENT:
        raise ValueError(message)
    if status == _OUT_OF_MEMORY:
        raise MemoryError(message)
    if status == _NOT_SUPPORTED:
        raise TesseraError(message)
    if status == _INTERRUPTED:
        # Only tessera_interrupt() stops a run, and the package calls it on Ctrl+C alone.
        raise KeyboardInterrupt(message)
    raise TesseraError(message)


def _text(value):
    return None if value is None else str(value).encode()


def make_options(border=None, border_value=None, scale=None, offset=None, depth=None, device="auto",
                 method="auto", gpu_memory_limit=0):
    """The C options structure for the keyword arguments of apply(), each checked first (TypeError
    or ValueError naming the argument): a value the structure cannot hold never reaches it."""
    border = _args.choice("border", border, _args.BORDERS)
    depth = _args.choice("depth", depth, _args.DEPTHS)
    method = _args.choice("method", method, _args.METHODS)
    device = _args.text("device", device)
    border_value = _args.real("border_value", border_value)
    scale = _args.real("scale", scale)
    offset = _args.real("offset", offset)
    o = _Options()
    o.border = _text(border)
    o.depth = _text(depth)
    o.device = _text(device)
    o.method = _text(method)
    if border_value is not None:
        o.set_border_value, o.border_value = 1, border_value
    if scale is not None:
        o.set_scale, o.scale = 1, scale
    if offset is not None:
        o.set_offset, o.offset = 1, offset
    o.gpu_memory_limit = _args.byte_count("gpu_memory_limit", gpu_memory_limit)
    return o


def make_image(data, width, height, row_stride, channels, depth):
    """The C image structure (depth: 0 u8, 1 u16, 2 f32)."""
    return _Image(data, width, height, row_stride, channels, depth)


def filters_json():
    global _filters_cache
    with _lock:
        if _filters_cache is None:
            _filters_cache = json.loads(_lib.tessera_filters_json().decode())["filters"]
    return _filters_cache


def devices_json():
    return json.loads(_lib.tessera_devices_json().decode())


def describe_chain(chain_json, options):
    out = ctypes.c_char_p()
    _check(_lib.tessera_describe_chain(chain_json.encode(), ctypes.byref(options), ctypes.byref(out)))
    return json.loads(out.value.decode())


def plan_create(src, memory, chain_json, options):
    """(plan handle, output depth code, scratch bytes) for images like src in host or device
    memory: the one call that parses the chain and the options."""
    handle = ctypes.c_void_p()
    depth = ctypes.c_int32()
    scratch = ctypes.c_uint64()
    _check(_lib.tessera_plan_create(ctypes.byref(src), memory, chain_json.encode(), ctypes.byref(options),
                                    ctypes.byref(handle), ctypes.byref(depth), ctypes.byref(scratch)))
    return handle.value, depth.value, scratch.value


_run_host = _lib.tessera_plan_run_host
_run_device = _lib.tessera_plan_run_device


def plan_run_host(handle, src, src_stride, dst, dst_stride):
    status = _run_host(handle, src, src_stride, dst, dst_stride)
    if status:
        _check(status)


def plan_run_device(handle, src, src_stride, dst, dst_stride, stream, scratch, scratch_bytes):
    status = _run_device(handle, src, src_stride, dst, dst_stride, stream or None, scratch or None,
                         scratch_bytes if scratch else 0)
    if status:
        _check(status)


def plan_free(handle):
    if handle:
        _lib.tessera_plan_free(handle)


def pointer_device(pointer):
    """The CUDA ordinal of the GPU holding a device pointer."""
    device = ctypes.c_int32()
    _check(_lib.tessera_pointer_device(ctypes.c_void_p(pointer), ctypes.byref(device)))
    return device.value


def stream_wait(device, stream, producer):
    _check(_lib.tessera_stream_wait(device, ctypes.c_void_p(stream or None), ctypes.c_void_p(producer or None)))


def last_run(form):
    """The calling thread's last run as JSON text (REPORT_JSON; "null" before any) or as a
    Chrome trace (REPORT_CHROME_TRACE)."""
    out = ctypes.c_char_p()
    _check(_lib.tessera_last_run(form, ctypes.byref(out)))
    return out.value.decode(errors="replace")


def set_step_timing(on):
    return bool(_lib.tessera_set_step_timing(1 if on else 0))


def describe_chain_text(text, source):
    """describe_chain on a preset's own text, its messages naming `source` (a file)."""
    try:
        return describe_chain(text, make_options())
    except ValueError as e:
        message = str(e)
        if message.startswith("chain: "):
            message = message[len("chain: "):]
        raise ValueError(f"{source}: {message}") from None


def write_image(path, image, rgb, quality, compression):
    """Writes image (a C image structure) to path (bytes); the encoding used, in words."""
    encoding = ctypes.c_char_p()
    _check(_lib.tessera_write_image(path, ctypes.byref(image), 1 if rgb else 0, _text(quality), _text(compression),
                                    ctypes.byref(encoding)))
    return encoding.value.decode()

