# Google Benchmark and GoogleTest: the installed packages first, a pinned FetchContent fallback
# for machines that lack them. Thrust and CUB come with the CUDA Toolkit (CCCL).
include(FetchContent)

if(GPS_BUILD_BENCHMARKS)
  find_package(benchmark 1.7 QUIET)
  if(NOT benchmark_FOUND)
    message(STATUS "Google Benchmark not found: fetching v1.8.3")
    set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
    set(BENCHMARK_ENABLE_INSTALL OFF CACHE BOOL "" FORCE)
    FetchContent_Declare(
      googlebenchmark
      URL https://github.com/google/benchmark/archive/refs/tags/v1.8.3.tar.gz
      URL_HASH SHA256=6bc180a57d23d4d9515519f92b0c83d61b05b5bab188961f36ac7b06b0d9e9ce)
    FetchContent_MakeAvailable(googlebenchmark)
    set(GPS_BENCHMARK_VERSION 1.8.3)
  else()
    set(GPS_BENCHMARK_VERSION ${benchmark_VERSION})
    message(STATUS "Google Benchmark ${benchmark_VERSION} found")
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
