/// \file
/// The local device's compute peak as the views show it: the figure and a
/// translated explanation of how it was estimated (runtime::DeviceInfo does
/// the detecting, without Qt).
#pragma once

#include "runtime/DeviceInfo.h"

#include <QString>

namespace tessel::views {

/// How `device`'s peak was computed, in the user's language (for a tooltip).
QString peakExplanation(const runtime::DeviceInfo& device = runtime::DeviceInfo::local());

} // namespace tessel::views
