# SPDX-License-Identifier: Apache-2.0
"""The checks every public function runs on its arguments, and the exact keys its caches use.

A value of the wrong type raises TypeError, a value of the right type that cannot be used
(not finite, fractional where a whole number is needed, out of range) raises ValueError; both
name the argument. Non-finite numbers are refused everywhere, as ``tessera-cli`` refuses them.

Cache keys are exact: a float goes in as its IEEE-754 bit pattern, so values that differ in
the last bit, and 0.0 and -0.0, get keys of their own (NaN never reaches a key: it is refused
first)."""

import decimal
import math
import numbers
import struct

import numpy as np

_UINT64_MAX = (1 << 64) - 1

BORDERS = ("reflect101", "reflect", "replicate", "constant", "wrap")
DEPTHS = ("same", "u8", "u16", "f32", "keep")
METHODS = ("auto", "direct", "separable", "fft")


def _is_integer_type(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_real_type(value):
    return _is_integer_type(value) or isinstance(value, (float, np.floating))


def real(name, value):
    """value as a finite float, or None for None."""
    if value is None:
        return None
    if not _is_real_type(value):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    try:
        result = float(value)
    except OverflowError:
        raise ValueError(f"{name}={value} is too large for a double") from None
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite, got {result}")
    return result


def whole(name, value, low=None, high=None):
    """value as an int: an integer, or a float holding a whole number; low and high bound it."""
    if _is_integer_type(value):
        result = int(value)
    elif isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or not float(value).is_integer():
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        result = int(value)
    else:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    if (low is not None and result < low) or (high is not None and result > high):
        raise ValueError(f"{name}={result} is out of range [{low}, {high}]")
    return result


def byte_count(name, value):
    """A number of bytes for a uint64 field (None: 0)."""
    return 0 if value is None else whole(name, value, 0, _UINT64_MAX)


def choice(name, value, allowed):
    """value when it is one of allowed (or None)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {', '.join(allowed)}")
    if value not in allowed:
        raise ValueError(f"{name}={value!r}; expected one of {', '.join(allowed)}")
    return value


def text(name, value):
    """value when it is a string (or None)."""
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type(value).__name__}")
    return value


def anchor(value, name="anchor"):
    """An anchor as [x, y] of ints."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be a pair (x, y) of integers, got {value!r}")
    try:
        x, y = value
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (x, y) of integers, got {value!r}") from None
    return [whole(f"{name}'s x", x), whole(f"{name}'s y", y)]


def kernel(value, name="kernel"):
    """A kernel's weights as a 2-D float64 array (a 1-D one becomes one row), every weight a
    finite real number. Complex weights are refused rather than cut to their real part."""
    if isinstance(value, np.ndarray) and value.dtype == np.float64 and value.ndim == 2:
        weights = value
    else:
        try:
            raw = np.asarray(value)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{name} is not a 2-D array of weights: {e}") from None
        if raw.dtype.kind == "c":
            raise TypeError(f"{name} has complex weights ({raw.dtype}); give real numbers")
        if raw.dtype.kind not in "biuf" and raw.dtype != np.dtype(object):
            raise TypeError(f"{name} must hold numbers, not {raw.dtype}")
        if raw.dtype == np.dtype(object):
            # Each item converts to float64 once, here; the array's own bytes (pointers to the
            # items) are never used as its identity.
            for item in raw.flat:
                if not isinstance(item, (numbers.Real, decimal.Decimal)):
                    raise TypeError(f"{name} must hold real numbers, not {type(item).__name__}")
        try:
            weights = raw.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueError(f"{name}: {e}") from None
        if weights.ndim == 1:
            weights = weights.reshape(1, -1)
    if weights.ndim != 2 or weights.size == 0:
        raise ValueError(f"a {name} must be a non-empty 2-D array of weights, got shape {weights.shape}")
    if not np.all(np.isfinite(weights)):
        raise ValueError(f"a {name}'s weights must be finite numbers")
    return weights


def param(key, value):
    """A filter parameter for the preset JSON: a bool, an int, a finite float or a choice name."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if _is_integer_type(value):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return real(f"parameter {key!r}", value)
    if isinstance(value, str):
        return value
    raise TypeError(f"parameter {key!r} must be a number, a bool or a choice name, not {type(value).__name__}")


def json_value(where, value):
    """Checks a value bound for preset JSON (a dict entry given by the caller): every float in it
    finite. Returns value."""
    if isinstance(value, (float, np.floating)):
        real(where, value)
    elif isinstance(value, dict):
        for k, v in value.items():
            json_value(f"{where}[{k!r}]", v)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            json_value(f"{where}[{i}]", v)
    return value


_PLAIN = frozenset((bool, int, str, bytes, type(None)))
_pack_double = struct.Struct("<d").pack


def exact(value):
    """A hashable key that tells apart every two values that may behave differently: floats by
    their bit pattern, every value with its type, tuples item by item. Raises TypeError for
    anything else (the call then is not remembered)."""
    # Every repeated call keys its options here, so the common exact types come first, by
    # type identity; subclasses and NumPy scalars take the general rules below, with the same
    # results.
    kind = type(value)
    if kind in _PLAIN:
        return kind, value
    if kind is float:
        return float, _pack_double(value)
    if kind is tuple:
        return tuple, tuple([exact(v) for v in value])
    if isinstance(value, float):
        return float, struct.pack("<d", value)
    if isinstance(value, np.floating):
        return type(value), value.tobytes()
    if isinstance(value, tuple):
        return tuple, tuple(exact(v) for v in value)
    if value is None or isinstance(value, (bool, int, str, bytes, np.integer, np.bool_)):
        return type(value), value
    raise TypeError(f"{type(value).__name__} has no exact key")
