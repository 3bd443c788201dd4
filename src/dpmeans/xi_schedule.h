// The weights of the side information in RDP-means and kernel RDP-means
// (Khashabi et al.'s Algorithm 1): xi starts small and grows by the factor
// xi_rate after every sweep up to xi_max, separately for must-links and
// cannot-links, and the sweeps end after `patience` unchanged ones or once
// an unchanged sweep meets weights that no longer grow. Plain C++17.
#pragma once

#include <algorithm>

namespace sideclust {

struct XiScheduleParams {
  double xi_must = 0.0, xi_cannot = 0.0;  // weights of the first sweep
  double xi_rate = 1.0;                    // multiplied in after every sweep
  double xi_max_must = 0.0, xi_max_cannot = 0.0;
  int patience = 20;   // sweeps without a change that end the run
  int max_iter = 1000;
  bool random_order = true;
};

// The same schedule with its weights in units of `unit`: the starting weights
// and the caps are multiplied by it (the rate is a factor and stays).
inline XiScheduleParams weights_in_units(XiScheduleParams par, double unit) {
  par.xi_must *= unit;
  par.xi_cannot *= unit;
  par.xi_max_must *= unit;
  par.xi_max_cannot *= unit;
  return par;
}

// The current weights and the count of unchanged sweeps.
class XiSchedule {
 public:
  explicit XiSchedule(const XiScheduleParams& par)
      : par_(par), must_(par.xi_must), cannot_(par.xi_cannot) {}
  double must() const { return must_; }
  double cannot() const { return cannot_; }
  // Whether the weights are still below their caps after this sweep.
  bool must_grows() const { return std::min(must_ * par_.xi_rate, par_.xi_max_must) != must_; }
  bool cannot_grows() const {
    return std::min(cannot_ * par_.xi_rate, par_.xi_max_cannot) != cannot_;
  }
  // After a sweep that changed `changed` assignments: true when the run ends
  // (`settled`: the caller knows that growing weights could move no point);
  // otherwise the weights grow for the next sweep. With the weights fixed, a
  // sweep without a change is a fixed point that later sweeps would repeat.
  bool finish_sweep(int changed, bool settled = false) {
    stable_ = changed == 0 ? stable_ + 1 : 0;
    const double next_must = std::min(must_ * par_.xi_rate, par_.xi_max_must);
    const double next_cannot = std::min(cannot_ * par_.xi_rate, par_.xi_max_cannot);
    if (stable_ >= par_.patience ||
        (stable_ > 0 && ((next_must == must_ && next_cannot == cannot_) || settled))) {
      return true;
    }
    must_ = next_must;
    cannot_ = next_cannot;
    return false;
  }

 private:
  XiScheduleParams par_;
  double must_, cannot_;
  int stable_ = 0;
};

}  // namespace sideclust
