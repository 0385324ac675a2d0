# Google Benchmark from third_party/ (below); GoogleTest installed, or a pinned FetchContent
# fallback for machines that lack it. Thrust and CUB come with the CUDA Toolkit (CCCL).
include(FetchContent)

# Google Benchmark is built from the copy in third_party/ (v1.8.3, unmodified, Apache-2.0) as a
# release build: distribution packages are often debug builds (Debian's prints "Library was built
# as DEBUG" and records library_build_type: debug). -DGPS_SYSTEM_BENCHMARK=ON takes an installed
# one instead (the JSON's library_build_type then says which build it is).
option(GPS_SYSTEM_BENCHMARK "Use an installed Google Benchmark instead of third_party/'s" OFF)
if(GPS_BUILD_BENCHMARKS)
  if(GPS_SYSTEM_BENCHMARK)
    find_package(benchmark 1.7 REQUIRED)
    set(GPS_BENCHMARK_VERSION ${benchmark_VERSION})
    message(STATUS "Google Benchmark ${benchmark_VERSION} found (installed)")
  else()
    set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_WERROR OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_LTO OFF CACHE BOOL "" FORCE)
    FetchContent_Declare(
      googlebenchmark
      URL ${CMAKE_CURRENT_SOURCE_DIR}/third_party/benchmark-1.8.3.tar.gz
      URL_HASH SHA256=a011f90a10a8423ea99d634b5d928bfdeac3aff404b4843d803cfe0f5237f7b1)
    FetchContent_MakeAvailable(googlebenchmark)
    # a release build of the library whatever this project's build type (NDEBUG is what Google
    # Benchmark reports as library_build_type)
    target_compile_definitions(benchmark PRIVATE NDEBUG)
    set(GPS_BENCHMARK_VERSION 1.8.3)
    message(STATUS "Google Benchmark 1.8.3 (third_party/, release build)")
  endif()
endif()

if(GPS_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    message(STATUS "GoogleTest not found: fetching v1.14.0")
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    FetchContent_Declare(
      googletest
      URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz
      URL_HASH SHA256=8ad598c73ad796e0d8280b082cebd82a630d73e73cd3c70057938a6501bba5d7)
    FetchContent_MakeAvailable(googletest)
    if(NOT TARGET GTest::gtest_main)
      add_library(GTest::gtest_main ALIAS gtest_main)
    endif()
  endif()
endif()
