/// \file
/// Where the IDE finds its bundled files (the GEMM ladder, templates): the
/// TESSEL_RESOURCES environment variable, else `../share/tessel/resources`
/// next to the executable (the installed package), else the source tree's
/// `resources/` (a build folder).
#pragma once

#include <QString>

namespace tessel::views {

/// The resources folder, without a trailing slash.
QString resourcesDir();
/// A file under it ("examples/gemm/01_baseline.te").
QString resourcePath(const QString& relative);

} // namespace tessel::views
