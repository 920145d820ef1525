# tessel_add_plugin(TARGET FOLDER DIR METADATA FILE SOURCES ... [INSTALL_ID ID])
#
# Builds a Tessel plugin (plugins/README.md): a MODULE library in folder DIR
# with its metadata FILE copied beside it as DIR/plugin.json. The library's
# file name is lib<TARGET>.so, which plugin.json's "library" must name. It is
# built against core's headers only (plugin/PluginApi.h, tune/CostModel.h)
# and links no Tessel library; symbols are hidden except the entry point
# (TESSEL_PLUGIN_EXPORT). With INSTALL_ID the library and plugin.json are
# installed into ${TESSEL_PLUGIN_INSTALL_DIR}/ID/, where an installed
# tesselc or tessel finds them.
function(tessel_add_plugin target)
  cmake_parse_arguments(P "" "FOLDER;METADATA;INSTALL_ID" "SOURCES" ${ARGN})
  add_library(${target} MODULE ${P_SOURCES})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core)
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${P_FOLDER}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # Re-copied whenever the metadata changes (configure_file tracks its input).
  configure_file(${P_METADATA} ${P_FOLDER}/plugin.json COPYONLY)
  if(P_INSTALL_ID)
    install(TARGETS ${target} LIBRARY DESTINATION ${TESSEL_PLUGIN_INSTALL_DIR}/${P_INSTALL_ID})
    install(FILES ${P_METADATA} DESTINATION ${TESSEL_PLUGIN_INSTALL_DIR}/${P_INSTALL_ID} RENAME plugin.json)
  endif()
endfunction()
