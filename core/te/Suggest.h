/// \file
/// "Did you mean ...?": the closest known name to a misspelt one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessel::te {

/// Edit distance where swapping two neighbouring characters costs one.
int editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `name` when it is close enough to be a likely
/// typo; empty otherwise.
std::string closestName(std::string_view name, const std::vector<std::string>& candidates);

/// "; did you mean 'tile'?" or "".
std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates);

} // namespace tessel::te
