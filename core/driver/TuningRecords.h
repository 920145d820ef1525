/// \file
/// Reading and writing tuning records for the front ends (the IDE's Tuning
/// view and record table, `tesselc records`) and the tuning loop: one place
/// that says how a records file is read (tune::Records, JSON lines) and how a
/// record is written back as a line. Apply-best reads its records through
/// loadRecords (ApplyBest.h), which takes a folder of files too.
#pragma once

#include "tune/Records.h"

#include <string>
#include <vector>

namespace tessel::driver {

/// The trials a tuning run resumes from and the curves start with: the
/// records of `path`; a file that does not exist yet holds none. Lines that
/// do not parse are skipped and described in `warnings`. Throws
/// std::runtime_error when the file cannot be read.
tune::Records readTuningHistory(const std::string& path, std::vector<std::string>* warnings = nullptr);

/// The records of the file `path`, which must exist (std::runtime_error
/// otherwise); lines that do not parse are skipped and described in `warnings`.
tune::Records readRecordsFile(const std::string& path, std::vector<std::string>* warnings = nullptr);

/// `record` as its line in a records file (without the newline).
std::string recordLine(const tune::Record& record);

} // namespace tessel::driver
