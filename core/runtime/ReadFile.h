/// \file
/// A whole file as bytes, for the runtime's readers (exported models, kernel
/// bundles, PTX modules).
#pragma once

#include <string>

namespace tessel::runtime {

/// The bytes of `path`; throws std::runtime_error "cannot read '<path>'".
std::string readFile(const std::string& path);

} // namespace tessel::runtime
