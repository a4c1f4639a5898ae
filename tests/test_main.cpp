// Test entry point: prints which devices the parameterised tests will cover,
// so a CI log shows what ran and what was skipped.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/registry.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::printf("[tessera] devices under test:");
  for (const auto& d : tessera::list_devices()) std::printf(" %s", d.id.c_str());
  std::printf("\n");
  return RUN_ALL_TESTS();
}
