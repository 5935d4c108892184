# SPDX-License-Identifier: Apache-2.0
# Packages: five Debian packages, one per install component (packaging/CMakeLists.txt), and a
# tarball of the whole install tree. Release packages come from the release preset (every GPU
# architecture); CI checks ones built from the dev preset. `cpack -G DEB` in the build folder
# makes the .debs; packaging/check-package.sh installs, uses and purges them.
#
#   libtessera0       libtessera.so.0: the engine, the GPU code and the C interface
#   libtessera-dev    its headers, find_package(Tessera) files and tessera.pc
#   tessera-cli       tessera-cli, samples, presets and the manual; Qt Core only, for headless nodes
#   tessera           the window and tessera-bench (Qt Widgets), desktop entry and icons
#   python3-tessera   the Python package over libtessera0
set(CPACK_PACKAGE_NAME tessera)
set(CPACK_PACKAGE_VENDOR "The Tessera developers")
set(CPACK_PACKAGE_CONTACT "The Tessera developers <tessera@users.noreply.github.com>")
# CPackDeb puts a package-wide summary in front of every component's description unless it is
# CPack's own default; each component's description below starts with its own synopsis line.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
if(TESSERA_HOMEPAGE)
    set(CPACK_PACKAGE_HOMEPAGE_URL ${TESSERA_HOMEPAGE})
endif()
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB TGZ)
# The dev preset builds with debug information; a package carries stripped programs.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib dev cli gui python)
# The tarball stays one tree holding every component.
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${CPACK_PACKAGE_CONTACT})
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Library dependencies come from dpkg-shlibdeps (Debian 12's Qt 6, OpenCV, the codecs, libstdc++,
# libc). Two folders are private to it: the CUDA toolkit's, so that cuFFT (NVIDIA's, found at run
# time, and Tessera copes when it is absent) is left out of Depends; and the build's lib/, where
# libtessera.so.0 is resolved and then named below with its exact version.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR} ${PROJECT_BINARY_DIR}/lib)
set(tessera_lib_depends "libtessera0 (= ${PROJECT_VERSION})")

# CPack writes the summary as the synopsis and the description as the extended description,
# indenting each line and turning empty lines into paragraph breaks.
set(tessera_about "Tessera stacks convolution filters (Gaussian, box, Sobel, sharpening or a
kernel drawn on a grid) and computes them with CUDA on every NVIDIA GPU of
the machine, or with OpenCV on the CPU when there is none.")
set(tessera_cufft_note "The FFT method needs cuFFT (libcufft.so.12) from the NVIDIA CUDA toolkit
at run time; without it the other methods are used.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libtessera0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_LIB_DESCRIPTION "Tessera's convolution engine (shared library)
${tessera_about}

This package holds libtessera.so.0, shared by the Tessera programs and the
Python module: the filters, the CPU path, the GPU engine and its kernels,
the image files and the C interface.

${tessera_cufft_note}")
# The library's C++ symbols belong to one release: programs are tied to the exact version.
# (Only libtessera0 holds a shared library, so only it gets a shlibs file.)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/debian/libtessera0/triggers)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libtessera-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS ${tessera_lib_depends})
set(CPACK_COMPONENT_DEV_DESCRIPTION "Tessera's convolution engine (development files)
${tessera_about}

This package holds the C header <tessera/tessera.h>, a header-only C++
layer <tessera/tessera.hpp>, the CMake package (find_package(Tessera),
target Tessera::tessera) and the pkg-config file tessera.pc.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME tessera-cli)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS ${tessera_lib_depends})
set(CPACK_COMPONENT_CLI_DESCRIPTION "filter images with Tessera from the command line
${tessera_about}

This package holds tessera-cli, for single images, batches over many
files and Slurm clusters, device lists and timings, with sample
photographs, presets and the HTML manual. It needs no graphical
libraries, so it suits headless nodes.")

set(CPACK_DEBIAN_GUI_PACKAGE_NAME tessera)
# The Qt platform plugin for X11 and Wayland lives in its own package, which no library pulls in.
set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "${tessera_lib_depends}, tessera-cli (= ${PROJECT_VERSION}), qt6-qpa-plugins")
set(CPACK_DEBIAN_GUI_PACKAGE_RECOMMENDS "fonts-dejavu-core")
set(CPACK_COMPONENT_GUI_DESCRIPTION "desktop studio for 2D image convolution on NVIDIA GPUs
${tessera_about}

This package holds the window, tessera: open an image, stack filters or
design a kernel on a grid, and watch the result previewed live; and
tessera-bench, which times the GPU kernels.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-tessera)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "${tessera_lib_depends}, python3 (>= 3.8), python3-numpy")
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_SOURCE_DIR}/debian/python3-tessera/postinst ${CMAKE_CURRENT_SOURCE_DIR}/debian/python3-tessera/prerm)
set(CPACK_COMPONENT_PYTHON_DESCRIPTION "Tessera's convolution engine for Python 3
${tessera_about}

This package holds the Python module tessera: NumPy arrays on the CPU or
the GPUs, and CuPy and PyTorch arrays on the GPU, through libtessera0.")

include(CPack)
