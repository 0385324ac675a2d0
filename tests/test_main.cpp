// The tests' main(): GoogleTest's, except that a run in which every selected test was skipped
// (no GPU, or every size above GPS_TEST_MAX_N) exits with 77, which CTest reports as "Skipped"
// instead of "Passed" (SKIP_RETURN_CODE in tests/CMakeLists.txt).
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  const auto& unit = *::testing::UnitTest::GetInstance();
  if (result == 0 && unit.successful_test_count() == 0 && unit.skipped_test_count() > 0)
    return 77;
  return result;
}
