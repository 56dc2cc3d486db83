# Small wrappers so every folder declares its targets the same way.
#
#   shoal_cc_library(NAME n SRCS a.cc ... DEPS x y)
#   shoal_cc_binary(NAME n SRCS main.cc DEPS x)          -> build/bin/n
#   shoal_cc_test(NAME n SRCS t.cc DEPS x [LABELS l ...])  -> gtest, registered with ctest
#   shoal_cc_fuzz(NAME n SRCS f.cc DEPS x CORPUS dir)     -> libFuzzer binary when SHOAL_FUZZ,
#       otherwise a replay binary that runs every corpus file once (a ctest in every build).

function(shoal_cc_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  add_library(${A_NAME} STATIC ${A_SRCS})
  target_link_libraries(${A_NAME} PUBLIC ${A_DEPS})
endfunction()

function(shoal_cc_binary)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
endfunction()

function(shoal_cc_test)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS;LABELS" ${ARGN})
  if(NOT A_LABELS)
    set(A_LABELS unit)
  endif()
  add_executable(${A_NAME} ${A_SRCS})
  set_target_properties(${A_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  add_test(NAME ${A_NAME} COMMAND ${A_NAME})
  set_tests_properties(${A_NAME} PROPERTIES LABELS "${A_LABELS}"
    ENVIRONMENT "SHOAL_BIN_DIR=${CMAKE_BINARY_DIR}/bin;SHOAL_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()

function(shoal_cc_fuzz)
  cmake_parse_arguments(A "" "NAME;CORPUS" "SRCS;DEPS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  set_target_properties(${A_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  if(SHOAL_FUZZ)
    target_compile_options(${A_NAME} PRIVATE -fsanitize=fuzzer)
    target_link_options(${A_NAME} PRIVATE -fsanitize=fuzzer)
  else()
    target_link_libraries(${A_NAME} PRIVATE shoal_fuzz_replay)
  endif()
  add_test(NAME ${A_NAME}_corpus COMMAND ${A_NAME} ${CMAKE_SOURCE_DIR}/${A_CORPUS})
  set_tests_properties(${A_NAME}_corpus PROPERTIES LABELS "unit;fuzz")
endfunction()
