# SPDX-License-Identifier: Apache-2.0
# Packages: a Debian package (tessera_VERSION_ARCH.deb) and a tarball of the same install tree.
# Release packages come from the release preset (every GPU architecture); CI checks one built
# from the dev preset. `cpack -G DEB` in the build folder makes the .deb.
set(CPACK_PACKAGE_NAME tessera)
set(CPACK_PACKAGE_VENDOR "The Tessera developers")
set(CPACK_PACKAGE_CONTACT "The Tessera developers <tessera@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop studio for 2D image convolution on NVIDIA GPUs")
set(CPACK_PACKAGE_HOMEPAGE_URL ${TESSERA_HOMEPAGE})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB TGZ)
# The dev preset builds with debug information; a package carries stripped programs.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${CPACK_PACKAGE_CONTACT})
# CPack writes CPACK_PACKAGE_DESCRIPTION_SUMMARY as the synopsis and this as the extended
# description, indenting each line and turning empty lines into paragraph breaks.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Tessera opens an image, stacks convolution filters (Gaussian, box, Sobel,
sharpening or a kernel drawn on a grid) and previews the result live,
computed with CUDA on every NVIDIA GPU of the machine, or with OpenCV on
the CPU when there is none.

The package holds the window (tessera), a command-line tool for single
images and batches (tessera-cli), a benchmark (tessera-bench) and the
Python module tessera (NumPy arrays, and CuPy and PyTorch arrays on the
GPU), with sample photographs and presets.

The FFT method needs cuFFT (libcufft.so.12) from the NVIDIA CUDA toolkit
at run time; without it the other methods are used.")
# Library dependencies come from dpkg-shlibdeps (Debian 12's Qt 6, OpenCV, libstdc++, libc).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# cuFFT belongs to NVIDIA's toolkit, not to a Debian package, and Tessera copes when it is
# absent: dpkg-shlibdeps must not look for a package that provides it. Its folder is named as a
# private library folder, so that libcufft.so.12 is resolved there and left out of Depends.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# The Qt platform plugin for X11 and Wayland lives in its own package, which no library pulls in.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# The Python package needs an interpreter and NumPy; the programs need neither.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core, python3, python3-numpy")

include(CPack)
