# SPDX-License-Identifier: Apache-2.0
"""Filters and chains as values, and preset files: what apply() runs, written as the preset
JSON the library (and ``tessera-cli apply --preset``) reads."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

from . import _args, _lib

# The largest preset file read (as the C++ side's limit).
_MAX_PRESET_BYTES = 4 << 20
_STEP_OPTIONS = ("border", "border_value", "scale", "offset", "depth")


def _kernel_entry(kernel, anchor):
    weights = _args.kernel(kernel)
    entry = {"id": "custom", "size": [int(weights.shape[1]), int(weights.shape[0])],
             "weights": [float(v) for v in weights.ravel()]}
    if anchor is not None:
        entry["anchor"] = _args.anchor(anchor)
    return entry


class Filter:
    """One filter of a chain: a registry filter by id with its parameters, or a custom kernel.

    ``Filter("gaussian", sigma=2.0)``, ``Filter("sobel", dx=1, dy=0)``,
    ``Filter(kernel=np.ones((3, 3)) / 9, anchor=(0, 0))``. Parameters are those that
    ``tessera.filters()`` lists for the id; values may be numbers, bools or choice names.
    ``border``, ``border_value``, ``scale``, ``offset`` and ``depth`` set this step's own
    values (apply()'s options of the same name override them for the whole chain).
    """

    def __init__(self, id: Optional[str] = None, *, kernel: Any = None, anchor: Optional[Sequence[int]] = None,
                 border: Optional[str] = None, border_value: Optional[float] = None, scale: Optional[float] = None,
                 offset: Optional[float] = None, depth: Optional[str] = None, **params: Any) -> None:
        if kernel is not None:
            if id not in (None, "custom"):
                raise TypeError(f"give either a filter id ({id!r}) or kernel=, not both")
            if params:
                raise TypeError(f"a custom kernel takes no parameters (got {', '.join(sorted(params))})")
            self._entry = _kernel_entry(kernel, anchor)
        else:
            if not isinstance(id, str) or not id:
                raise TypeError("a filter needs an id (see tessera.filters()) or kernel=")
            self._entry = {"id": id}
            if params:
                self._entry["params"] = {k: _args.param(k, v) for k, v in params.items()}
            if anchor is not None:
                self._entry["anchor"] = _args.anchor(anchor)
        for key, value in (("border", _args.choice("border", border, _args.BORDERS)),
                           ("border_value", _args.real("border_value", border_value)),
                           ("scale", _args.real("scale", scale)), ("offset", _args.real("offset", offset)),
                           ("depth", _args.choice("depth", depth, _args.DEPTHS))):
            if value is not None:
                self._entry[key] = value

    @property
    def id(self) -> str:
        """The registry id ("custom" for a kernel)."""
        return self._entry["id"]

    def entries(self) -> List[Dict[str, Any]]:
        """This step as preset JSON entries (a list of one dict)."""
        return [dict(self._entry)]

    def __repr__(self) -> str:
        return f"tessera.Filter({json.dumps(self._entry)[:120]})"


def _entries_of(item):
    if isinstance(item, (Filter, Chain)):
        return item.entries()
    if isinstance(item, str):
        return [{"id": item}]
    if isinstance(item, dict):
        return [_args.json_value("a chain's entry", dict(item))]
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict):
        return Filter(item[0], **item[1]).entries()
    if isinstance(item, (np.ndarray, list)):
        return [_kernel_entry(item, None)]
    raise TypeError(f"a chain takes filter ids, tessera.Filter, (id, params) pairs, preset entries (dict), "
                    f"kernels (2-D arrays) or chains, not {type(item).__name__}")


def _entries_and_json(steps, name=None):
    if isinstance(steps, (str, Filter, Chain, dict)):
        steps = [steps]
    entries = []
    for item in steps:
        entries.extend(_entries_of(item))
    if not entries:
        raise ValueError("a chain needs at least one filter")
    doc = {"filters": entries}
    if name:
        doc["name"] = name
    return entries, json.dumps(doc, allow_nan=False)


def chain_json(steps: Any) -> str:
    """The preset JSON of steps as Chain(steps) writes it, checked on the Python side only: the
    library checks the rest when it plans the chain (apply() needs no separate call for it).
    Floats are written as their shortest round-tripping text, so the text is an exact key."""
    return _entries_and_json(steps)[1]


class Chain:
    """Filters run one after another in one call, each reading the previous one's output.

    ``Chain(["box", Filter("gaussian", sigma=3), ("sobel", {"dx": 1}), np.ones((3, 3)) / 9])``.
    Items may be filter ids, Filter objects, (id, params) pairs, preset entries as dicts, 2-D
    kernels or other chains (a loaded preset, say). A chain is checked when it is made: an
    unknown filter, a bad parameter or a kernel that does not fit raise ValueError.
    """

    def __init__(self, steps: Union[Iterable[Any], str, "Filter", "Chain", Dict[str, Any]], *,
                 name: Optional[str] = None) -> None:
        self._entries, self._json = _entries_and_json(steps, name)
        self.name = name
        self._steps = _lib.describe_chain(self._json, _lib.make_options())

    def entries(self) -> List[Dict[str, Any]]:
        """The steps as preset JSON entries."""
        return [dict(e) for e in self._entries]

    def to_json(self) -> str:
        """The chain as preset JSON text (what ``tessera-cli apply --preset`` reads)."""
        return self._json

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the chain as a preset file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @property
    def steps(self) -> List[Dict[str, Any]]:
        """One dict per step as the library built it: id, kernel_size, anchor, border,
        border_value, scale, offset, depth, separable."""
        return [dict(s) for s in self._steps]

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        ids = ", ".join(e.get("id", "custom") for e in self._entries)
        return f"tessera.Chain([{ids}]{', name=' + repr(self.name) if self.name else ''})"


def _preset_entries(doc):
    """A preset document's steps with the document's defaults written into each."""
    if not isinstance(doc, dict):
        raise ValueError("a preset must be a JSON object")
    if "filters" in doc:
        entries = []
        for entry in doc["filters"] if isinstance(doc["filters"], list) else []:
            entry = dict(entry) if isinstance(entry, dict) else entry
            if isinstance(entry, dict):
                for key in ("border", "border_value", "depth"):
                    if key in doc and key not in entry:
                        entry[key] = doc[key]
            entries.append(entry)
        return entries
    entry = {k: v for k, v in doc.items() if k not in ("name", "description")}
    entry.setdefault("id", "custom")
    return [entry]


def load_preset(path: Union[str, "os.PathLike[str]"]) -> Chain:
    """Reads a preset file (the JSON the window saves and ``tessera-cli apply --preset`` reads)
    into a Chain. Raises OSError when the file cannot be read and ValueError when its contents
    are not a valid preset (the message names the file and the field)."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isfile(path):
        raise ValueError(f"{path}: not a regular file (a preset is JSON text)")
    if os.path.getsize(path) > _MAX_PRESET_BYTES:
        raise ValueError(f"{path}: larger than {_MAX_PRESET_BYTES} bytes; not a preset")
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    # The library reads the file's own text first, so its messages name the file and field.
    _lib.describe_chain_text(text, path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: {e}") from None
    return Chain(_preset_entries(doc), name=doc.get("name") if isinstance(doc.get("name"), str) else None)
