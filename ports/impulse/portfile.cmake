# SPDX-License-Identifier: MIT
# vcpkg port of impulse (header-only). Until impulse is in the vcpkg registry, use this directory
# as an overlay port:  vcpkg install impulse --overlay-ports=<impulse source>/ports
#
# REPO "impulse/impulse" is a placeholder: set it to the GitHub owner/name impulse is published
# under (and "homepage" in vcpkg.json to match). SHA512 0 is what vcpkg's documentation says to
# use for a new port: the hash of the v${VERSION} tag's archive cannot be known before the tag
# exists. At release time, run the install once; vcpkg reports the archive's actual SHA512, which
# replaces the 0 below.
vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO impulse/impulse
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main
)

set(VCPKG_BUILD_TYPE release) # header-only port

# tests/port/ in the source tree performs these same steps with plain CMake (these OPTIONS are
# read from this file), installs to a staging prefix and checks the layout this file relies on.
vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DIMPULSE_BUILD_TESTS=OFF
        -DIMPULSE_BUILD_EXAMPLES=OFF
        -DIMPULSE_BUILD_TOOLS=OFF
        -DIMPULSE_BUILD_DOCS=OFF
        -DIMPULSE_INSTALL=ON
)

vcpkg_cmake_install()

# impulse installs its CMake package to share/cmake/impulse; vcpkg wants it in share/impulse.
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/impulse)

# Header-only: no debug tree, nothing in lib/. The license goes to share/impulse/copyright.
file(REMOVE_RECURSE
    "${CURRENT_PACKAGES_DIR}/debug"
    "${CURRENT_PACKAGES_DIR}/lib"
    "${CURRENT_PACKAGES_DIR}/share/doc"
)

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
