// The host loop shared by PhysSolver and DistributedPhysSolver::advance_to:
// steps in batches of at most `check_every` between reads of the device health
// (cut so that a read falls on every multiple of `align_every` steps, where the
// outputs of --every are written), stops at the target time or a bad cell, and
// refuses a time that no longer advances. The reads also bound the work queued
// ahead of the host, so that a signal is seen within check_every steps.
#pragma once
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "swe/physical.hpp"

namespace tessera::swe::detail {

template <class T, class Step, class Read>
Health advance_loop(T target, long check_every, long align_every, Step step, Read read_health,
                    const std::function<void(const Health&)>& on_check) {
  Health last = read_health();
  for (;;) {
    const long batch = align_every > 0
                           ? std::min(check_every, align_every - last.steps % align_every)
                           : check_every;
    for (long k = 0; k < batch; ++k) step();
    const Health h = read_health();
    if (on_check) on_check(h);
    if (h.bad || !(h.time < double(target))) return h;
    if (h.time == last.time && h.steps > last.steps)
      throw Error(
          fmt::format("simulated time stalls at t = {} s: t + dt == t for dt = {} in {} "
                      "precision; use --precision double",
                      h.time, h.dt, sizeof(T) == 4 ? "single" : "double"));
    last = h;
  }
}

}  // namespace tessera::swe::detail
