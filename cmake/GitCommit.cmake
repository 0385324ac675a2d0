# The commit the binaries are built from, recorded in the benchmark JSON context.
# scripts/bench.sh re-runs the configure step, so this is refreshed before every suite run.
set(GPS_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(DEFINED ENV{GPS_GIT_COMMIT})
  # a copy of the tree without .git (e.g. sent to a remote GPU machine) is told its commit
  set(GPS_GIT_COMMIT "$ENV{GPS_GIT_COMMIT}")
elseif(GIT_FOUND)
  execute_process(
    COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    OUTPUT_VARIABLE _gps_commit RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0)
    set(GPS_GIT_COMMIT "${_gps_commit}")
    execute_process(
      COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no -- kernels bench CMakeLists.txt
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
      OUTPUT_VARIABLE _gps_dirty ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_gps_dirty)
      set(GPS_GIT_COMMIT "${GPS_GIT_COMMIT}-dirty")
    endif()
  endif()
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/git_commit.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/git_commit.hpp @ONLY)
