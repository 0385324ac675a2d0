// Every algorithm of the study, in suite order. Adding an algorithm: its problem file in this
// folder and one line here.
#include "problem.hpp"

namespace gps {

const Problem& scan_problem();
const Problem& compact_problem();
const Problem& reduce_problem();
const Problem& sort_problem();
const Problem& utf8_problem();

const std::vector<const Problem*>& all_problems() {
  static const std::vector<const Problem*> list = {
      &scan_problem(), &compact_problem(), &reduce_problem(), &sort_problem(), &utf8_problem()};
  return list;
}

} // namespace gps
