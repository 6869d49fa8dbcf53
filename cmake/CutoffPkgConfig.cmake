# SPDX-License-Identifier: MIT
# cutoff_install_pkgconfig(<template>)
#
# Installs cutoff.pc into <libdir>/pkgconfig. The file is made in two passes: at configure
# time everything but the prefix is filled in; at install time the prefix is the one being
# installed to, so `cmake --install build --prefix DIR` yields a correct file for DIR.
# Relative install directories are written relative to ${prefix}, as pkg-config expects.
# Uses CK_LDFLAGS and HWLOC_LDFLAGS of the pkg_check_modules calls in CMakeLists.txt.
function(cutoff_install_pkgconfig template)
  foreach(kind LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
      set(CUTOFF_PC_${kind} "${CMAKE_INSTALL_${kind}}")
    elseif(kind STREQUAL "LIBDIR")
      set(CUTOFF_PC_${kind} "\${exec_prefix}/${CMAKE_INSTALL_${kind}}")
    else()
      set(CUTOFF_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
    endif()
  endforeach()
  # Concurrency Kit and hwloc go to Libs.private with the link flags this build found for
  # them, not to Requires.private: pkg-config and pkgconf add the Cflags of
  # Requires.private modules to `--cflags`, and ck's are -D__x86_64__, which no user's
  # compiler needs (cutoff's headers include neither ck nor hwloc; a static link needs
  # only their libraries). The linker's own directories are left out of those flags:
  # pkg_check_modules reports them too.
  set(libs "")
  foreach(flag IN LISTS CK_LDFLAGS HWLOC_LDFLAGS)
    if(flag MATCHES "^-L(.*)$" AND CMAKE_MATCH_1 IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
      continue()
    endif()
    list(APPEND libs "${flag}")
  endforeach()
  # Boost.Context, when the library was built with it (the dts driver's fibers).
  if(CUTOFF_BOOST_CONTEXT)
    list(APPEND libs -lboost_context)
  endif()
  list(APPEND libs -lpthread -lm)
  list(REMOVE_DUPLICATES libs)
  string(REPLACE ";" " " CUTOFF_PC_LIBS_PRIVATE "${libs}")
  # Left for the install-time pass.
  set(CUTOFF_PC_PREFIX "@CUTOFF_PC_PREFIX@")

  set(stage "${PROJECT_BINARY_DIR}/pkgconfig/cutoff.pc.in")
  set(out "${PROJECT_BINARY_DIR}/pkgconfig/cutoff.pc")
  configure_file("${template}" "${stage}" @ONLY)
  install(CODE "
    set(CUTOFF_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${stage}\" \"${out}\" @ONLY)
  ")
  install(FILES "${out}" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endfunction()
