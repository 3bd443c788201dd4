// Indices grouped by an id, in one block (a counting sort): the helper of
// every "members of each unit / component" list, where millions of small
// vectors would cost an allocation each.
#pragma once

#include <cstddef>
#include <vector>

namespace sideclust {

// For i < n with id[i] in [0, groups): start gets groups + 1 offsets and
// members the indices i, so that group g holds members[start[g] ..
// start[g + 1]) in ascending i.
inline void group_by_id(const int* id, std::size_t n, int groups, std::vector<int>& start,
                        std::vector<int>& members) {
  start.assign(static_cast<std::size_t>(groups) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[id[i] + 1];
  for (int g = 0; g < groups; ++g) start[g + 1] += start[g];
  members.resize(n);
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) members[fill[id[i]]++] = static_cast<int>(i);
}

}  // namespace sideclust
