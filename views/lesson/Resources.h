/// \file
/// Where the IDE finds its data files (examples, templates, the lesson), until
/// they are embedded as Qt resources.
#pragma once

#include <QString>

namespace tessel::views {

/// The resources directory, the first of: the environment variable
/// TESSEL_RESOURCES; `<executable>/../share/tessel/resources` (an installed
/// IDE); the source tree's `resources/` (a build that was not installed).
/// Returns the last even when it does not exist, so messages can name it.
QString resourcesDir();

/// `resourcesDir()/relative`.
QString resourcePath(const QString& relative);

} // namespace tessel::views
