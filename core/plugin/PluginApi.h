/// \file
/// The one entry point a Tessel plugin exports, and what it is handed.
///
/// A plugin is a folder under plugins/ (or a folder on TESSEL_PLUGIN_PATH)
/// holding `plugin.json` and the shared library it names:
///
///     {
///       "id": "costmodel-xgboost",
///       "name": "XGBoost cost model",
///       "version": "1.0",
///       "abi": 1,
///       "library": "libtessel-costmodel-xgboost.so",
///       "provides": ["cost-model:xgb"]
///     }
///
/// The library exports `extern "C" int tessel_plugin_register(const
/// tessel::plugin::PluginHost* host, char* error, size_t errorSize)`: it
/// checks host->abi, adds what it brings to the registries in `host`, and
/// returns 0, or writes why not into `error` and returns non-zero. The loader
/// (plugin/PluginLoader.h) refuses a plugin whose metadata is malformed, whose
/// "abi" differs from kPluginAbi, whose library does not load or lacks the
/// entry point, or whose registration fails, and says why; it never crashes
/// the host for it. Core loads plugins with dlopen, so tesselc and tessel load
/// the same ones.
///
/// The ABI is C++ (the registries are C++ objects): a plugin must be built
/// against the same Tessel headers and compiler as the host, which is what
/// kPluginAbi stands for; it changes whenever PluginHost or a registry it
/// points to changes layout.
#pragma once

#include <cstddef>

namespace tessel::tune {
class CostModelRegistry;
}

namespace tessel::plugin {

/// The plugin ABI this build of Tessel speaks.
inline constexpr int kPluginAbi = 1;

/// What a plugin may register into. Pointers stay valid for the call only; a
/// plugin keeps no pointer to the host.
struct PluginHost {
    int abi = kPluginAbi;
    /// The Tessel version string ("0.12.0").
    const char* tesselVersion = "";
    /// The plugin's own folder (absolute), for data files it ships.
    const char* pluginDir = "";
    tune::CostModelRegistry* costModels = nullptr;
};

/// The entry point's name and type.
inline constexpr const char* kRegisterSymbol = "tessel_plugin_register";
using RegisterFunction = int (*)(const PluginHost* host, char* error, size_t errorSize);

} // namespace tessel::plugin
