# SPDX-License-Identifier: Apache-2.0
"""What an image argument is and how its memory is laid out: NumPy arrays on the host, CuPy
arrays, PyTorch CUDA tensors and other ``__cuda_array_interface__`` objects on a GPU."""

import numpy as np

from . import _lib

# dtype <-> the library's depth codes
_DEPTHS = {np.dtype(np.uint8): 0, np.dtype(np.uint16): 1, np.dtype(np.float32): 2}
_DTYPES = {v: k for k, v in _DEPTHS.items()}
_DEPTH_NAMES = {0: "u8", 1: "u16", 2: "f32"}


class Layout:
    """An image's geometry as the library takes it: pointer, size, row stride in bytes,
    channels, depth code, and whether it was given as HxW (no channel axis)."""

    __slots__ = ("data", "height", "width", "channels", "depth", "row_stride", "flat", "device")

    def __init__(self, data, height, width, channels, depth, row_stride, flat, device=None):
        self.data = data
        self.height = height
        self.width = width
        self.channels = channels
        self.depth = depth
        self.row_stride = row_stride
        self.flat = flat
        self.device = device

    def shape(self):
        return (self.height, self.width) if self.flat else (self.height, self.width, self.channels)

    def image(self):
        return _lib.make_image(self.data, self.width, self.height, self.row_stride, self.channels, self.depth)

    def span(self):
        """[first byte, one past the last byte] the image covers."""
        itemsize = _DTYPES[self.depth].itemsize
        end = self.data + self.row_stride * (self.height - 1) + self.width * self.channels * itemsize
        return self.data, end


def dtype_of(depth):
    return _DTYPES[depth]


def depth_name(depth):
    return _DEPTH_NAMES[depth]


_CONVERTED_ON_HOST = (np.dtype(np.int16), np.dtype(np.float64))


def _depth_of(dtype, role, host=True):
    dtype = np.dtype(dtype)
    if dtype not in _DEPTHS:
        if host:
            hint = " (and int16 or float64 NumPy images, converted)"
        elif dtype in _CONVERTED_ON_HOST:
            hint = (f"; {dtype} is converted for NumPy images only: convert a device array first "
                    "(.astype(float32), .to(torch.float32))")
        else:
            hint = ""
        raise TypeError(f"{role} has dtype {dtype}; tessera takes uint8, uint16 or float32 images{hint}")
    return _DEPTHS[dtype]


def _layout(shape, strides, itemsize, role):
    """(height, width, channels, row stride, flat) from a shape and byte strides, or a
    ValueError saying what is wrong with them."""
    if len(shape) not in (2, 3):
        raise ValueError(f"{role} has shape {tuple(shape)}; expected HxW or HxWxC with C = 1, 3 or 4 (or a "
                         "batch of them, NxHxWxC)")
    flat = len(shape) == 2
    height, width = int(shape[0]), int(shape[1])
    channels = 1 if flat else int(shape[2])
    if channels not in (1, 3, 4):
        raise ValueError(f"{role} has {channels} channels (shape {tuple(shape)}); expected 1, 3 or 4 "
                         "(a planar CxHxW array must be moved to HxWxC first; a stack of single-channel "
                         "images, NxHxW, needs batch=True)")
    if height < 1 or width < 1:
        raise ValueError(f"{role} is empty (shape {tuple(shape)})")
    if strides is None:
        return height, width, channels, width * channels * itemsize, flat
    strides = tuple(int(s) for s in strides)
    if not flat and channels > 1 and strides[2] != itemsize:
        raise ValueError(f"{role}'s channels are not interleaved (strides {strides}); tessera takes HxWxC "
                         "with the channels of a pixel side by side (use numpy.ascontiguousarray)")
    if width > 1 and strides[1] != channels * itemsize:
        raise ValueError(f"{role}'s pixels are not contiguous within a row (strides {strides}); a crop with a "
                         "step along x or a transposed view must be copied first (numpy.ascontiguousarray)")
    row_stride = strides[0] if height > 1 else width * channels * itemsize
    if row_stride < width * channels * itemsize:
        raise ValueError(f"{role}'s rows overlap or run backwards (strides {strides}); tessera takes rows "
                         "in increasing memory order (use numpy.ascontiguousarray)")
    if row_stride % itemsize != 0:
        raise ValueError(f"{role}'s row stride {row_stride} is not a multiple of its item size")
    return height, width, channels, row_stride, flat


def host_layout(array, role="the image"):
    """The Layout of a NumPy array, checked: dtype, shape, strides and alignment."""
    if is_torch(array):
        raise TypeError(f"{role} is a PyTorch tensor on {array.device}: pass tensor.numpy() (no copy) or a "
                        "CUDA tensor")
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{role} must be a numpy.ndarray, a CuPy array or a PyTorch tensor, "
                        f"not {type(array).__name__}")
    depth = _depth_of(array.dtype, role)
    h, w, c, stride, flat = _layout(array.shape, array.strides, array.itemsize, role)
    if not array.flags.aligned:
        raise ValueError(f"{role} is not aligned to its item size")
    return Layout(array.ctypes.data, h, w, c, depth, stride, flat)


def is_torch(obj):
    return type(obj).__module__.split(".")[0] == "torch" and hasattr(obj, "data_ptr")


def is_cupy(obj):
    return type(obj).__module__.split(".")[0] == "cupy"


def is_device_array(obj):
    """Whether obj is an array in GPU memory tessera can read without a copy."""
    if is_torch(obj):
        return bool(obj.is_cuda)
    return hasattr(obj, "__cuda_array_interface__")


_TORCH_DEPTHS = {"torch.uint8": 0, "torch.uint16": 1, "torch.float32": 2}


def device_layout(obj, role="the image"):
    """The Layout of a CUDA array (CuPy, PyTorch, or anything with __cuda_array_interface__),
    and the producer stream the interface names (None when it names none)."""
    if is_torch(obj):
        if not obj.is_cuda:
            raise TypeError(f"{role} is a PyTorch tensor on {obj.device}; give tensor.numpy() for the host path "
                            "or a CUDA tensor")
        name = str(obj.dtype)
        if name not in _TORCH_DEPTHS:
            hint = (f"; {name} is converted for NumPy images only: convert the tensor first (.to(torch.float32))"
                    if name in ("torch.int16", "torch.float64") else "")
            raise TypeError(f"{role} has dtype {name}; tessera takes torch.uint8, torch.uint16 or torch.float32"
                            f"{hint}")
        depth = _TORCH_DEPTHS[name]
        itemsize = obj.element_size()
        strides = tuple(s * itemsize for s in obj.stride())
        h, w, c, stride, flat = _layout(tuple(obj.shape), strides, itemsize, role)
        return Layout(obj.data_ptr(), h, w, c, depth, stride, flat, obj.device.index), None
    cai = obj.__cuda_array_interface__
    depth = _depth_of(np.dtype(cai["typestr"]), role, host=False)
    itemsize = np.dtype(cai["typestr"]).itemsize
    h, w, c, stride, flat = _layout(cai["shape"], cai.get("strides"), itemsize, role)
    device = None
    if is_cupy(obj):
        device = obj.device.id
    return Layout(int(cai["data"][0]), h, w, c, depth, stride, flat, device), cai.get("stream")


def check_out(out, expected_shape, expected_dtype, role="out"):
    """Raises TypeError/ValueError unless out has the shape and dtype the result needs."""
    if is_torch(out):
        dtype = str(out.dtype).replace("torch.", "")
        shape = tuple(out.shape)
    else:
        dtype = str(np.dtype(getattr(out, "dtype", None))) if hasattr(out, "dtype") else type(out).__name__
        shape = tuple(getattr(out, "shape", ()))
    if dtype != str(np.dtype(expected_dtype)):
        raise TypeError(f"{role} has dtype {dtype}; the result is {np.dtype(expected_dtype)}")
    if shape != tuple(expected_shape):
        raise ValueError(f"{role} has shape {shape}; the result has shape {tuple(expected_shape)}")
