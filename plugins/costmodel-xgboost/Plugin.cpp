// The plugin's entry point: registers the XGBoost cost model as "xgb".
#include "XgbCostModel.h"

#include "plugin/PluginApi.h"

#include <memory>

TESSEL_PLUGIN_EXPORT int tessel_plugin_register(const tessel::plugin::PluginHost* host, char* error,
                                                size_t errorSize) {
    using namespace tessel;
    return plugin::runRegistration(host, error, errorSize, [](const plugin::PluginHost& h) {
        plugin::addCostModel(
            h, {xgb::XgbCostModel::kName, xgb::XgbCostModel::summary(), "",
                [](const tune::CostModelOptions& o) -> std::unique_ptr<tune::CostModel> {
                    return std::make_unique<xgb::XgbCostModel>(o);
                }});
    });
}
