# cutoff_install_pkgconfig(<template>)
#
# Installs cutoff.pc into <libdir>/pkgconfig. The file is made in two passes: at configure
# time everything but the prefix is filled in; at install time the prefix is the one being
# installed to, so `cmake --install build --prefix DIR` yields a correct file for DIR.
# Relative install directories are written relative to ${prefix}, as pkg-config expects.
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
