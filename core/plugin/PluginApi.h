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
///       "provides": ["cost-model:xgb"],
///       "description": "optional, one line"
///     }
///
/// The library exports `extern "C" int tessel_plugin_register(const
/// tessel::plugin::PluginHost* host, char* error, size_t errorSize)`: it
/// checks host->abi, adds what it brings through the host's functions
/// (addCostModel), and returns 0, or writes why not into `error` and returns
/// non-zero. runRegistration() below does the checking and the error
/// handling, so an entry point is one line around the plugin's own code.
/// The loader (plugin/PluginLoader.h) refuses a plugin whose metadata is
/// malformed, whose "abi" differs from kPluginAbi, whose library does not
/// load or lacks the entry point, or whose registration fails, and says why;
/// what a refused plugin registered is dropped (it registers into a scratch
/// registry that is moved over only on success). It never crashes the host
/// for a refusal; a plugin that crashes inside its own code still takes the
/// process with it (it runs in-process).
///
/// A plugin links no Tessel library: it is built against the headers only
/// (this one and tune/CostModel.h), and reaches the registries through the
/// function pointers in PluginHost, which the host fills in.
///
/// The ABI is C++ (a registry record holds std::string and std::function):
/// a plugin must be built against the same Tessel headers, with the same
/// compiler and C++ standard library as the host, which is what kPluginAbi
/// stands for; it changes whenever PluginHost, a record type or a model
/// interface it passes changes layout. `abi` stays PluginHost's first member
/// in every version, so a mismatch is read safely.
#pragma once

#include "tune/CostModel.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace tessel::plugin {

/// The plugin ABI this build of Tessel speaks.
inline constexpr int kPluginAbi = 1;

/// What a plugin may register into. Pointers stay valid for the call only; a
/// plugin keeps no pointer to the host.
struct PluginHost {
    /// The host's kPluginAbi (always the first member).
    int abi = kPluginAbi;
    /// The Tessel version string ("0.12.0").
    const char* tesselVersion = "";
    /// The plugin's own folder (absolute), for data files it ships.
    const char* pluginDir = "";
    /// The cost models this plugin has registered so far in this call (the
    /// loader's scratch registry; records() may be read, add through
    /// addCostModel).
    tune::CostModelRegistry* costModels = nullptr;
    /// Adds a kind of cost model to `registry` (tune::CostModelRegistry::add,
    /// run by the host). Throws std::invalid_argument when the name is taken
    /// or the factory is empty. The loader sets the record's origin to the
    /// plugin's folder.
    void (*addCostModel)(tune::CostModelRegistry& registry, tune::CostModelRecord record) = nullptr;
};

/// Adds a cost model through `host` (what a plugin calls).
inline void addCostModel(const PluginHost& host, tune::CostModelRecord record) {
    host.addCostModel(*host.costModels, std::move(record));
}

/// The entry point's name and type.
inline constexpr const char* kRegisterSymbol = "tessel_plugin_register";
using RegisterFunction = int (*)(const PluginHost* host, char* error, size_t errorSize);

/// Exports the entry point from a library built with -fvisibility=hidden.
#define TESSEL_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

/// Copies `message` into the entry point's error buffer (truncated, always
/// terminated) and returns 1, the entry point's failure value.
inline int registrationError(char* error, size_t errorSize, std::string_view message) noexcept {
    if (error && errorSize > 0) {
        const size_t n = std::min(message.size(), errorSize - 1);
        std::memcpy(error, message.data(), n);
        error[n] = '\0';
    }
    return 1;
}

/// The body of a plugin's entry point: checks that the host speaks this
/// plugin's ABI and has the functions it needs, runs `registerAll(host)`, and
/// turns an exception into the error text and a non-zero return. A plugin's
/// whole entry point:
///
///     TESSEL_PLUGIN_EXPORT int tessel_plugin_register(const tessel::plugin::PluginHost* host,
///                                                     char* error, size_t errorSize) {
///         return tessel::plugin::runRegistration(host, error, errorSize, [](const auto& h) {
///             tessel::plugin::addCostModel(h, {"mine", "my model; options: ...", "", makeMine});
///         });
///     }
template <class F>
int runRegistration(const PluginHost* host, char* error, size_t errorSize,
                    F&& registerAll) noexcept {
    if (!host) return registrationError(error, errorSize, "no host given");
    if (host->abi != kPluginAbi)
        return registrationError(error, errorSize,
                                 "built for plugin ABI " + std::to_string(kPluginAbi) +
                                     ", the host speaks ABI " + std::to_string(host->abi));
    if (!host->costModels || !host->addCostModel)
        return registrationError(error, errorSize, "the host gave no cost model registry");
    try {
        registerAll(*host);
        return 0;
    } catch (const std::exception& e) {
        return registrationError(error, errorSize, e.what());
    } catch (...) {
        return registrationError(error, errorSize,
                                 "registration threw an exception that is not a std::exception");
    }
}

} // namespace tessel::plugin
