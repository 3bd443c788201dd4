// The weights of the side information in RDP-means and kernel RDP-means
// (Khashabi et al.'s Algorithm 1): xi starts small and grows by the factor
// xi_rate after every sweep up to xi_max, separately for may-links and
// may-not links, and the sweeps end after `patience` unchanged ones or once
// an unchanged sweep meets weights that no longer grow. Plain C++17.
#pragma once

#include <algorithm>

namespace sideclust {

struct XiScheduleParams {
  double xi_may = 0.0, xi_may_not = 0.0;  // weights of the first sweep
  double xi_rate = 1.0;                    // multiplied in after every sweep
  double xi_max_may = 0.0, xi_max_may_not = 0.0;
  int patience = 20;   // sweeps without a change that end the run
  int max_iter = 1000;
  bool random_order = true;
};

// The current weights and the count of unchanged sweeps.
class XiSchedule {
 public:
  explicit XiSchedule(const XiScheduleParams& par)
      : par_(par), may_(par.xi_may), may_not_(par.xi_may_not) {}
  double may() const { return may_; }
  double may_not() const { return may_not_; }
  // Whether the weights are still below their caps after this sweep.
  bool may_grows() const { return std::min(may_ * par_.xi_rate, par_.xi_max_may) != may_; }
  bool may_not_grows() const {
    return std::min(may_not_ * par_.xi_rate, par_.xi_max_may_not) != may_not_;
  }
  // After a sweep that changed `changed` assignments: true when the run ends
  // (`settled`: the caller knows that growing weights could move no point);
  // otherwise the weights grow for the next sweep. With the weights fixed, a
  // sweep without a change is a fixed point that later sweeps would repeat.
  bool finish_sweep(int changed, bool settled = false) {
    stable_ = changed == 0 ? stable_ + 1 : 0;
    const double next_may = std::min(may_ * par_.xi_rate, par_.xi_max_may);
    const double next_may_not = std::min(may_not_ * par_.xi_rate, par_.xi_max_may_not);
    if (stable_ >= par_.patience ||
        (stable_ > 0 && ((next_may == may_ && next_may_not == may_not_) || settled))) {
      return true;
    }
    may_ = next_may;
    may_not_ = next_may_not;
    return false;
  }

 private:
  XiScheduleParams par_;
  double may_, may_not_;
  int stable_ = 0;
};

}  // namespace sideclust
