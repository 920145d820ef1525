#include "runtime/ReadFile.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tessel::runtime {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read '" + path + "'");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace tessel::runtime
