# SPDX-License-Identifier: Apache-2.0
"""What pyproject.toml cannot say: the version and the wheel's tag.

The version is TESSERA_WHEEL_VERSION when set (the build sets it to the project's version with
the commit as a local part, e.g. 0.2.0+g1a2b3c4d5e6f), else the project version read from the
top-level CMakeLists.txt. A wheel holding tessera/libtessera.so.0 is tagged py3-none-<platform>:
the library is machine code, but it has no Python ABI, so any Python 3 takes it.
"""

import os
import re

from setuptools import setup
from setuptools.dist import Distribution

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # newer setuptools carry it themselves
    from setuptools.command.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
HAS_LIBRARY = os.path.exists(os.path.join(HERE, "tessera", "libtessera.so.0"))


def version():
    named = os.environ.get("TESSERA_WHEEL_VERSION")
    if named:
        return named
    try:
        with open(os.path.join(HERE, "..", "CMakeLists.txt"), encoding="utf-8") as cmake:
            found = re.search(r"project\(Tessera\s+VERSION\s+([0-9.]+)", cmake.read())
    except OSError:
        found = None
    if not found:
        raise RuntimeError("set TESSERA_WHEEL_VERSION: no CMakeLists.txt above this folder gives the version")
    return found.group(1)


class PlatformDistribution(Distribution):
    """With the library inside, the package is installed as platform-specific (platlib), so the
    wheel holds it at its root rather than under .data/purelib."""

    def has_ext_modules(self):
        return HAS_LIBRARY


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = not HAS_LIBRARY

    def get_tag(self):
        python, abi, platform = super().get_tag()
        return ("py3", "none", platform) if HAS_LIBRARY else (python, abi, platform)


setup(version=version(), distclass=PlatformDistribution, cmdclass={"bdist_wheel": PlatformWheel})
