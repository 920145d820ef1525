#include "shell/ViewRegistry.h"

#include <QCoreApplication>

namespace tessel::views {

void ViewRegistry::add(ViewRecord record) {
    for (auto& r : records_)
        if (r.id == record.id) {
            r = std::move(record);
            return;
        }
    records_.push_back(std::move(record));
}

const ViewRecord* ViewRegistry::find(const QString& id) const {
    for (const auto& r : records_)
        if (r.id == id) return &r;
    return nullptr;
}

QString ViewRegistry::title(const ViewRecord& record) {
    return record.title ? QCoreApplication::translate(kViewTitleContext, record.title) : record.id;
}

} // namespace tessel::views
