#include "driver/TuningRecords.h"

namespace tessel::driver {

tune::Records readTuningHistory(const std::string& path, std::vector<std::string>* warnings) {
    return tune::Records::load(path, warnings, false);
}

tune::Records readRecordsFile(const std::string& path, std::vector<std::string>* warnings) {
    return tune::Records::load(path, warnings, true);
}

std::string recordLine(const tune::Record& record) { return tune::formatRecord(record); }

} // namespace tessel::driver
